import Contracts
import Hummingbird
import ServiceKit

/// The audit log as operators read it, shared by the admin API and the console: newest first;
/// owners read all, admins their apps', moderators none.
struct AuditDesk: Sendable {
    let access: OperatorAccess
    let audit: AuditLog

    /// `?app=&operator=&action=&before=&limit=`.
    static func filter(_ query: Parameters) throws -> AuditQuery {
        func text(_ name: String) throws -> String? {
            guard let value = query[name[...]].map(String.init), !value.isEmpty else { return nil }
            guard value.utf8.count <= 64 else { throw ServiceError.badRequest("\(name) is too long") }
            return value
        }
        var filter = AuditQuery(apps: nil, appID: try text("app"), operatorID: try text("operator"), action: try text("action"))
        if let before = try text("before") {
            guard let time = GlintDate.milliseconds(from: before) else { throw ServiceError.badRequest("before must be a date") }
            filter.before = time
        }
        if let limit = try text("limit") {
            guard let value = Int(limit), (1...200).contains(value) else { throw ServiceError.badRequest("limit must be 1 to 200") }
            filter.limit = value
        }
        return filter
    }

    func entries(_ filter: AuditQuery, by op: SignedInOperator) async throws -> [AuditEntryAnswer] {
        var filter = filter
        filter.apps = try OperatorAccess.auditScope(for: op.record, apps: op.record.role == .owner ? [] : try await access.apps(for: op.record))
        return try await audit.entries(filter)
    }
}
