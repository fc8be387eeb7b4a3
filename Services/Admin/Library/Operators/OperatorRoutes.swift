import Contracts
import Hummingbird
import ServiceKit

/// Operators in the admin API (`/admin/api/operators`): list, add, change role and apps
/// (`…/{id}/role`), reset TOTP (`…/{id}/reset-totp`), remove (`DELETE …/{id}`); owners only.
struct OperatorRoutes: Sendable {
    let gate: OperatorGate
    let desk: OperatorDesk

    func register(on group: ServiceApplication.Group) {
        group.get("/admin/api/operators") { request, context -> Response in
            JSONCoding.response(body: try await desk.list(by: try await gate.admit(request, context)))
        }
        group.post("/admin/api/operators") { request, context -> Response in
            let op = try await gate.admit(request, context)
            try OperatorDesk.requireOwner(op)
            return JSONCoding.response(body: try await desk.add(try await request.decode(as: OperatorChange.self, context: context), by: op))
        }
        group.post("/admin/api/operators/{operator_id}/role") { request, context -> Response in
            let op = try await gate.admit(request, context)
            try OperatorDesk.requireOwner(op)
            let change = try await request.decode(as: OperatorChange.self, context: context)
            return JSONCoding.response(body: try await desk.change(try context.parameters.require("operator_id"), change, by: op))
        }
        group.post("/admin/api/operators/{operator_id}/reset-totp") { request, context -> Response in
            let op = try await gate.admit(request, context)
            return JSONCoding.response(body: try await desk.resetTOTP(try context.parameters.require("operator_id"), by: op))
        }
        group.delete("/admin/api/operators/{operator_id}") { request, context -> Response in
            let op = try await gate.admit(request, context)
            try await desk.remove(try context.parameters.require("operator_id"), by: op)
            return JSONCoding.response(body: EmptyAnswer())
        }
    }
}
