import Contracts
import Hummingbird
import ServiceKit

/// The request log in the admin API: `GET /admin/api/requests?request_id=&status=&app=&user=`
/// and one request through every process (`GET /admin/api/requests/{request_id}`).
struct RequestLogRoutes: Sendable {
    let gate: OperatorGate
    let desk: RequestLogDesk

    func register(on group: ServiceApplication.Group) {
        group.get("/admin/api/requests") { request, context -> Response in
            let op = try await gate.admit(request, context)
            return JSONCoding.response(body: try await desk.search(try RequestLogDesk.query(request.uri.queryParameters), by: op))
        }
        group.get("/admin/api/requests/{request_id}") { request, context -> Response in
            let op = try await gate.admit(request, context)
            return JSONCoding.response(body: try await desk.trace(try context.parameters.require("request_id"), by: op))
        }
    }
}
