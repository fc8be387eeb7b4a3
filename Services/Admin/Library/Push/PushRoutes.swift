import Contracts
import Hummingbird
import ServiceKit

/// Push in the admin API: `GET /admin/api/apps/{app_id}/push?hours=` and a test notification
/// (`POST …/users/{user_id}/test-push` `{title, body}`), owners and admins.
struct PushRoutes: Sendable {
    let gate: OperatorGate
    let access: OperatorAccess
    let desk: PushDesk

    func register(on group: ServiceApplication.Group) {
        group.get("/admin/api/apps/{app_id}/push") { request, context -> Response in
            let op = try await gate.admit(request, context)
            let app = try await access.app(try context.parameters.require("app_id"), for: op.record)
            return JSONCoding.response(body: try await desk.stats(hours: try PushDesk.hours(request.uri.queryParameters["hours"]), app: app, by: op))
        }
        group.post("/admin/api/apps/{app_id}/users/{user_id}/test-push") { request, context -> Response in
            let op = try await gate.admit(request, context)
            let app = try await access.app(try context.parameters.require("app_id"), for: op.record)
            let body = try await request.decode(as: TestPushRequest.self, context: context)
            return JSONCoding.response(body: try await desk.test(try context.parameters.require("user_id"), body, app: app, by: op))
        }
    }
}
