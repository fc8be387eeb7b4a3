import Contracts
import ServiceClients
import ServiceKit

/// Apps as owners and admins manage them, shared by the admin API and the console: what the
/// `apps` command does (registering, owners only) and, per app, flags, sign-in providers, a key
/// rotation with a grace and disabling. A key appears in an answer once, never in the audit log.
struct AppDesk: Sendable {
    let access: OperatorAccess
    let registry: AppRegistryClient
    let audit: AuditLog

    /// The apps the operator manages (moderators none).
    func details(by op: SignedInOperator) async throws -> [AppDetail] {
        try Self.requireManager(op)
        let apps = try await registry.details(op.requestID)
        return apps.filter { detail in OperatorAccess.covers(op.record, name: detail.name, id: detail.id) }.sorted { $0.name < $1.name }
    }

    func detail(_ appID: String, by op: SignedInOperator) async throws -> AppDetail {
        guard let found = try await details(by: op).first(where: { $0.id == appID }) else { throw ServiceError.notFound("no such app") }
        return found
    }

    func create(_ registration: AppRegistration, by op: SignedInOperator) async throws -> AppKeyIssued {
        guard op.record.role == .owner else { throw ServiceError(.forbidden, "apps are registered by owners") }
        let issued = try await registry.create(registration, op.requestID)
        try await audit.record(op, "app.create", app: issued.app.id, kind: "app", target: issued.app.id, after: JSONText.encode(issued.app))
        return issued
    }

    func change(_ appID: String, _ change: AppSettingsChange, by op: SignedInOperator) async throws -> AppDetail {
        let before = try await detail(appID, by: op)
        let after = try await registry.change(appID, change, op.requestID)
        try await audit.record(
            op, "app.change", app: appID, kind: "app", target: appID, before: JSONText.encode(before), after: JSONText.encode(after))
        return after
    }

    func rotateKey(_ appID: String, _ rotation: KeyRotation, by op: SignedInOperator) async throws -> AppKeyIssued {
        let before = try await detail(appID, by: op)
        let issued = try await registry.rotateKey(appID, rotation, op.requestID)
        try await audit.record(
            op, "app.rotate_key", app: appID, kind: "app", target: appID, before: JSONText.encode(before), after: JSONText.encode(issued.app))
        return issued
    }

    func setDisabled(_ appID: String, _ disabled: Bool, by op: SignedInOperator) async throws -> AppDetail {
        let before = try await detail(appID, by: op)
        let after = try await registry.disable(appID, AppDisabling(disabled: disabled), op.requestID)
        try await audit.record(
            op, disabled ? "app.disable" : "app.enable", app: appID, kind: "app", target: appID, before: JSONText.encode(before),
            after: JSONText.encode(after))
        return after
    }

    static func requireManager(_ op: SignedInOperator) throws {
        guard op.record.role != .moderator else { throw ServiceError(.forbidden, "apps are managed by owners and admins") }
    }
}
