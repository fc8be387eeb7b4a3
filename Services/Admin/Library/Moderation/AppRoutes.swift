import Contracts
import Hummingbird
import ServiceKit

/// `GET /admin/api/apps`: the apps the operator's role covers.
struct AppRoutes: Sendable {
    let gate: OperatorGate
    let access: OperatorAccess

    func register(on group: ServiceApplication.Group) {
        group.get("/admin/api/apps") { request, context -> Response in
            let op = try await gate.admit(request, context)
            let apps = try await access.apps(for: op.record).map { AdminAppAnswer(id: $0.appID, name: $0.name, profile: $0.profile, mount: $0.mount) }
            return JSONCoding.response(body: apps.sorted { $0.name < $1.name })
        }
    }
}
