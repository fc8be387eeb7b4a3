import Contracts
import Hummingbird
import ServiceKit

/// An app's payments in the admin API (`GET /admin/api/apps/{app_id}/payments?user=&order=&imp_uid=`)
/// and a refund (`POST …/payments/{imp_uid}/refund` `{reason}`), owners and admins.
struct PaymentRoutes: Sendable {
    let gate: OperatorGate
    let access: OperatorAccess
    let desk: PaymentDesk

    func register(on group: ServiceApplication.Group) {
        group.get("/admin/api/apps/{app_id}/payments") { request, context -> Response in
            let op = try await gate.admit(request, context)
            let app = try await access.app(try context.parameters.require("app_id"), for: op.record)
            return JSONCoding.response(body: try await desk.search(try PaymentDesk.search(request.uri.queryParameters), app: app, by: op))
        }
        group.post("/admin/api/apps/{app_id}/payments/{imp_uid}/refund") { request, context -> Response in
            let op = try await gate.admit(request, context)
            let app = try await access.app(try context.parameters.require("app_id"), for: op.record)
            let body = try await request.decode(as: PaymentRefundRequest.self, context: context)
            return JSONCoding.response(body: try await desk.refund(try context.parameters.require("imp_uid"), reason: body.reason, app: app, by: op))
        }
    }
}
