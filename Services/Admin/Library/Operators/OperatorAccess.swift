import Contracts
import ServiceClients
import ServiceKit

/// What an operator's role lets it see and do: an owner everything; an admin everything within
/// its apps; a moderator reports, content and users of its apps. An app outside an operator's
/// list does not exist for it (404), so nothing tells it which other apps there are.
struct OperatorAccess: Sendable {
    let auth: AuthClient

    /// The apps the operator may see.
    func apps(for op: OperatorRecord) async throws -> [AppInfo] {
        try await auth.apps().filter { Self.covers(op, $0) }
    }

    /// The app if the operator may act in it; `notFound` otherwise.
    func app(_ appID: String, for op: OperatorRecord) async throws -> AppInfo {
        guard appID.utf8.count <= 64, let app = try await auth.apps().first(where: { $0.appID == appID }), Self.covers(op, app) else {
            throw ServiceError.notFound("no such app")
        }
        return app
    }

    /// The audit lines an operator may read: owners all, admins their apps', moderators none.
    static func auditScope(for op: OperatorRecord, apps: [AppInfo]) throws -> [String]? {
        switch op.role {
        case .owner: return nil
        case .admin: return apps.map(\.appID)
        case .moderator: throw ServiceError(.forbidden, "the audit log is for owners and admins")
        }
    }

    static func covers(_ op: OperatorRecord, _ app: AppInfo) -> Bool {
        covers(op, name: app.name, id: app.appID)
    }

    static func covers(_ op: OperatorRecord, name: String, id: String) -> Bool {
        let list = op.appList
        return op.role == .owner || list.isEmpty || list.contains(id) || list.contains(name)
    }
}
