import Contracts
import Hummingbird
import ServiceKit

/// `GET /admin/api/overview?app=&days=`: an app's overview (owners may leave `app` out: every app).
struct OverviewRoutes: Sendable {
    let gate: OperatorGate
    let desk: OverviewDesk

    func register(on group: ServiceApplication.Group) {
        group.get("/admin/api/overview") { request, context -> Response in
            let op = try await gate.admit(request, context)
            let query = request.uri.queryParameters
            let app = query["app"].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
            return JSONCoding.response(body: try await desk.overview(app: app, days: try OverviewDesk.days(query["days"]), by: op))
        }
    }
}
