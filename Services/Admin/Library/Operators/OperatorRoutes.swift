import Contracts
import Hummingbird
import ServiceKit

/// Operators, managed by owners (`/admin/api/operators`): list, add (the password and TOTP URI
/// shown once), change role and apps, reset TOTP (their sessions end), remove. The last owner
/// stays one; an owner does not remove itself.
struct OperatorRoutes: Sendable {
    let gate: OperatorGate
    let registry: OperatorRegistry
    let signIn: SignInService
    let audit: AuditLog

    func register(on group: ServiceApplication.Group) {
        group.get("/admin/api/operators") { request, context -> Response in
            _ = try await owner(request, context)
            return JSONCoding.response(body: try await registry.store.all().map(\.answer))
        }
        group.post("/admin/api/operators") { request, context -> Response in
            let op = try await owner(request, context)
            let change = try await request.decode(as: OperatorChange.self, context: context)
            let added = try await registry.add(email: change.email ?? "", role: change.role, apps: change.apps ?? [])
            try await audit.record(op, "operator.add", kind: "operator", target: added.record.id, after: JSONText.encode(added.record.answer))
            return JSONCoding.response(body: OperatorCredentials(operator: added.record.answer, password: added.password, totpUri: added.totpURI))
        }
        group.post("/admin/api/operators/{operator_id}/role") { request, context -> Response in
            let op = try await owner(request, context)
            let id = try context.parameters.require("operator_id")
            let change = try await request.decode(as: OperatorChange.self, context: context)
            let before = try await registry.store.find(id: id)
            let changed = try await registry.change(id, role: change.role, apps: change.apps ?? [])
            try await audit.record(
                op, "operator.change", kind: "operator", target: id, before: before.map { JSONText.encode($0.answer) },
                after: JSONText.encode(changed.answer))
            return JSONCoding.response(body: changed.answer)
        }
        group.post("/admin/api/operators/{operator_id}/reset-totp") { request, context -> Response in
            let op = try await owner(request, context)
            let id = try context.parameters.require("operator_id")
            let (record, uri) = try await registry.resetTOTP(id)
            _ = try await signIn.signOutEverywhere(id)
            try await audit.record(op, "operator.reset_totp", kind: "operator", target: id)
            return JSONCoding.response(body: OperatorCredentials(operator: record.answer, password: nil, totpUri: uri))
        }
        group.delete("/admin/api/operators/{operator_id}") { request, context -> Response in
            let op = try await owner(request, context)
            let id = try context.parameters.require("operator_id")
            guard id != op.record.id else { throw ServiceError(.conflict, "an owner does not remove itself") }
            let removed = try await registry.remove(id)
            try await audit.record(op, "operator.remove", kind: "operator", target: id, before: JSONText.encode(removed.answer))
            return JSONCoding.response(body: EmptyAnswer())
        }
    }

    private func owner(_ request: Request, _ context: GlintRequestContext) async throws -> SignedInOperator {
        let op = try await gate.admit(request, context)
        guard op.record.role == .owner else { throw ServiceError(.forbidden, "operators are managed by owners") }
        return op
    }
}
