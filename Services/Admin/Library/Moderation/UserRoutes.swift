import Contracts
import Hummingbird
import ServiceClients
import ServiceKit

/// A user's ban and its lifting (`POST /admin/api/apps/{app_id}/users/{user_id}/ban`, `…/unban`):
/// asked of auth-svc, which makes every process refuse the user's tokens within a poll's answer.
struct UserRoutes: Sendable {
    let gate: OperatorGate
    let access: OperatorAccess
    let auth: AuthClient
    let moderation: ModerationActions
    let audit: AuditLog

    func register(on group: ServiceApplication.Group) {
        group.post("/admin/api/apps/{app_id}/users/{user_id}/ban") { request, context -> Response in
            let op = try await gate.admit(request, context)
            let app = try await access.app(try context.parameters.require("app_id"), for: op.record)
            let body = try await request.decode(as: AdminBanRequest.self, context: context)
            return JSONCoding.response(
                body: try await moderation.ban(try context.parameters.require("user_id"), app: app, reason: body.reason, until: body.until, by: op))
        }
        group.post("/admin/api/apps/{app_id}/users/{user_id}/unban") { request, context -> Response in
            let op = try await gate.admit(request, context)
            let app = try await access.app(try context.parameters.require("app_id"), for: op.record)
            let userID = try context.parameters.require("user_id")
            try await auth.unban(userID, app.appID, op.requestID)
            try await audit.record(op, "user.unban", app: app.appID, kind: "user", target: userID)
            return JSONCoding.response(body: EmptyAnswer())
        }
    }
}
