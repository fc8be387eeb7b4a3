import Contracts
import Hummingbird
import ServiceKit

/// `GET /admin/api/apps`: the apps the operator's role covers. Owners and admins manage them:
/// `GET /admin/api/apps/{app_id}` (settings, keys by their last characters), `POST /admin/api/apps`
/// (owners: register one; the key is in the answer, once), `POST …/{app_id}/settings`,
/// `…/rotate-key` `{grace_seconds}` (the new key in the answer, once), `…/disable`, `…/enable`.
struct AppRoutes: Sendable {
    let gate: OperatorGate
    let access: OperatorAccess
    let desk: AppDesk

    func register(on group: ServiceApplication.Group) {
        group.get("/admin/api/apps") { request, context -> Response in
            let op = try await gate.admit(request, context)
            let apps = try await access.apps(for: op.record).map { AdminAppAnswer(id: $0.appID, name: $0.name, profile: $0.profile, mount: $0.mount) }
            return JSONCoding.response(body: apps.sorted { $0.name < $1.name })
        }
        group.get("/admin/api/apps/{app_id}") { request, context -> Response in
            let op = try await gate.admit(request, context)
            return JSONCoding.response(body: try await desk.detail(try context.parameters.require("app_id"), by: op))
        }
        group.post("/admin/api/apps") { request, context -> Response in
            let op = try await gate.admit(request, context)
            return JSONCoding.response(body: try await desk.create(try await request.decode(as: AppRegistration.self, context: context), by: op))
        }
        group.post("/admin/api/apps/{app_id}/settings") { request, context -> Response in
            let op = try await gate.admit(request, context)
            let change = try await request.decode(as: AppSettingsChange.self, context: context)
            return JSONCoding.response(body: try await desk.change(try context.parameters.require("app_id"), change, by: op))
        }
        group.post("/admin/api/apps/{app_id}/rotate-key") { request, context -> Response in
            let op = try await gate.admit(request, context)
            let rotation = try await request.decode(as: KeyRotation.self, context: context)
            return JSONCoding.response(body: try await desk.rotateKey(try context.parameters.require("app_id"), rotation, by: op))
        }
        for (action, disabled) in [("disable", true), ("enable", false)] {
            group.post(RouterPath("/admin/api/apps/{app_id}/" + action)) { request, context -> Response in
                let op = try await gate.admit(request, context)
                return JSONCoding.response(body: try await desk.setDisabled(try context.parameters.require("app_id"), disabled, by: op))
            }
        }
    }
}
