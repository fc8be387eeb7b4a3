import Contracts
import Hummingbird
import ServiceKit

/// An app's users in the admin API (`GET /admin/api/apps/{app_id}/users?q=`, `…/users/{user_id}`),
/// a ban and its lifting (`…/ban`, `…/unban`: every process refuses the user's tokens within a
/// poll's answer), sign-out everywhere (`…/sign-out`) and deletion (`…/delete`).
struct UserRoutes: Sendable {
    let gate: OperatorGate
    let access: OperatorAccess
    let desk: UserDesk

    func register(on group: ServiceApplication.Group) {
        group.get("/admin/api/apps/{app_id}/users") { request, context -> Response in
            let (op, app) = try await admit(request, context)
            let query = request.uri.queryParameters["q"].map(String.init) ?? ""
            return JSONCoding.response(body: try await desk.search(app, query, by: op))
        }
        group.get("/admin/api/apps/{app_id}/users/{user_id}") { request, context -> Response in
            let (op, app) = try await admit(request, context)
            return JSONCoding.response(body: try await desk.detail(app, try context.parameters.require("user_id"), by: op))
        }
        group.post("/admin/api/apps/{app_id}/users/{user_id}/sign-out") { request, context -> Response in
            let (op, app) = try await admit(request, context)
            return JSONCoding.response(body: try await desk.signOut(app, try context.parameters.require("user_id"), by: op))
        }
        group.post("/admin/api/apps/{app_id}/users/{user_id}/delete") { request, context -> Response in
            let (op, app) = try await admit(request, context)
            try await desk.delete(app, try context.parameters.require("user_id"), by: op)
            return JSONCoding.response(body: EmptyAnswer())
        }
        group.post("/admin/api/apps/{app_id}/users/{user_id}/ban") { request, context -> Response in
            let (op, app) = try await admit(request, context)
            let body = try await request.decode(as: AdminBanRequest.self, context: context)
            return JSONCoding.response(body: try await desk.ban(app, try context.parameters.require("user_id"), body, by: op))
        }
        group.post("/admin/api/apps/{app_id}/users/{user_id}/unban") { request, context -> Response in
            let (op, app) = try await admit(request, context)
            try await desk.unban(app, try context.parameters.require("user_id"), by: op)
            return JSONCoding.response(body: EmptyAnswer())
        }
    }

    private func admit(_ request: Request, _ context: GlintRequestContext) async throws -> (SignedInOperator, AppInfo) {
        let op = try await gate.admit(request, context)
        return (op, try await access.app(try context.parameters.require("app_id"), for: op.record))
    }
}
