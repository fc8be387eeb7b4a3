import Contracts
import Hummingbird
import ServiceKit

/// The reports queue in the admin API (`GET /admin/api/apps/{app_id}/reports?state=open&kind=&limit=`)
/// and its actions (`POST …/reports/{kind}/{target_id}/dismiss|hide|ban`, `{reason?, until?}`).
struct ReportRoutes: Sendable {
    let gate: OperatorGate
    let access: OperatorAccess
    let desk: ReportDesk

    func register(on group: ServiceApplication.Group) {
        group.get("/admin/api/apps/{app_id}/reports") { request, context -> Response in
            let op = try await gate.admit(request, context)
            let app = try await access.app(try context.parameters.require("app_id"), for: op.record)
            return JSONCoding.response(body: try await desk.queue(app, try ReportDesk.filter(request.uri.queryParameters), by: op))
        }
        group.post("/admin/api/apps/{app_id}/reports/{kind}/{target_id}/{action}") { request, context -> Response in
            let op = try await gate.admit(request, context)
            let app = try await access.app(try context.parameters.require("app_id"), for: op.record)
            let body = try await request.decodeIfPresent(as: ReportActionRequest.self, context: context) ?? ReportActionRequest()
            let answer = try await desk.act(
                try context.parameters.require("action"), kind: try context.parameters.require("kind"),
                target: try context.parameters.require("target_id"), body, app: app, by: op)
            return JSONCoding.response(body: answer)
        }
    }
}
