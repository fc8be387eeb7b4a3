import Contracts
import ServiceKit

/// Operators as owners manage them, shared by the admin API and the console: list, add (the
/// password and TOTP URI shown once), change role and apps, reset TOTP (their sessions end),
/// remove. Every call but an owner's is refused; an owner does not remove itself.
struct OperatorDesk: Sendable {
    let registry: OperatorRegistry
    let signIn: SignInService
    let audit: AuditLog

    func list(by op: SignedInOperator) async throws -> [OperatorAnswer] {
        try Self.requireOwner(op)
        return try await registry.store.all().map(\.answer)
    }

    func add(_ change: OperatorChange, by op: SignedInOperator) async throws -> OperatorCredentials {
        try Self.requireOwner(op)
        let added = try await registry.add(email: change.email ?? "", role: change.role, apps: change.apps ?? [])
        try await audit.record(op, "operator.add", kind: "operator", target: added.record.id, after: JSONText.encode(added.record.answer))
        return OperatorCredentials(operator: added.record.answer, password: added.password, totpUri: added.totpURI)
    }

    func change(_ id: String, _ change: OperatorChange, by op: SignedInOperator) async throws -> OperatorAnswer {
        try Self.requireOwner(op)
        let before = try await registry.store.find(id: id)
        let changed = try await registry.change(id, role: change.role, apps: change.apps ?? [])
        try await audit.record(
            op, "operator.change", kind: "operator", target: id, before: before.map { JSONText.encode($0.answer) },
            after: JSONText.encode(changed.answer))
        return changed.answer
    }

    func resetTOTP(_ id: String, by op: SignedInOperator) async throws -> OperatorCredentials {
        try Self.requireOwner(op)
        let (record, uri) = try await registry.resetTOTP(id)
        _ = try await signIn.signOutEverywhere(id)
        try await audit.record(op, "operator.reset_totp", kind: "operator", target: id)
        return OperatorCredentials(operator: record.answer, password: nil, totpUri: uri)
    }

    func remove(_ id: String, by op: SignedInOperator) async throws {
        try Self.requireOwner(op)
        guard id != op.record.id else { throw ServiceError(.conflict, "an owner does not remove itself") }
        let removed = try await registry.remove(id)
        try await audit.record(op, "operator.remove", kind: "operator", target: id, before: JSONText.encode(removed.answer))
    }

    static func requireOwner(_ op: SignedInOperator) throws {
        guard op.record.role == .owner else { throw ServiceError(.forbidden, "operators are managed by owners") }
    }
}
