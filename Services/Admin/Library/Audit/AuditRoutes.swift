import Contracts
import Hummingbird
import ServiceKit

/// `GET /admin/api/audit?app=&operator=&action=&before=&limit=`. There is no route that changes a line.
struct AuditRoutes: Sendable {
    let gate: OperatorGate
    let desk: AuditDesk

    func register(on group: ServiceApplication.Group) {
        group.get("/admin/api/audit") { request, context -> Response in
            let op = try await gate.admit(request, context)
            return JSONCoding.response(body: try await desk.entries(try AuditDesk.filter(request.uri.queryParameters), by: op))
        }
    }
}
