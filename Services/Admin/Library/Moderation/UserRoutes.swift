import Contracts
import Hummingbird
import ServiceClients
import ServiceKit

/// An app's users (`GET /admin/api/apps/{app_id}/users?q=`, `…/users/{user_id}`), a ban and its
/// lifting (`…/ban`, `…/unban`: every process refuses the user's tokens within a poll's answer),
/// sign-out everywhere (`…/sign-out`) and deletion (`…/delete`, owners and admins only).
struct UserRoutes: Sendable {
    let gate: OperatorGate
    let access: OperatorAccess
    let auth: AuthClient
    let market: MarketClient
    let payments: PaymentClient
    let push: PushClient
    let moderation: ModerationActions
    let audit: AuditLog

    func register(on group: ServiceApplication.Group) {
        group.get("/admin/api/apps/{app_id}/users") { request, context -> Response in
            let op = try await gate.admit(request, context)
            let app = try await access.app(try context.parameters.require("app_id"), for: op.record)
            let query = request.uri.queryParameters["q"].map(String.init) ?? ""
            return JSONCoding.response(body: try await auth.searchUsers(app.appID, UserSearchQuery(query: query), op.requestID))
        }
        group.get("/admin/api/apps/{app_id}/users/{user_id}") { request, context -> Response in
            let op = try await gate.admit(request, context)
            let app = try await access.app(try context.parameters.require("app_id"), for: op.record)
            let userID = try context.parameters.require("user_id")
            var detail = try await auth.userDetail(userID, app.appID, op.requestID)
            detail.devices = try await push.devices(userID, app.appID, op.requestID)
            // Payments and wallets are not a moderator's.
            if op.record.role != .moderator {
                detail.coins = try await market.coins(userID, app.appID, op.requestID)
                detail.payments = try await payments.payments(userID, app.appID, op.requestID)
            }
            return JSONCoding.response(body: detail)
        }
        group.post("/admin/api/apps/{app_id}/users/{user_id}/sign-out") { request, context -> Response in
            let op = try await gate.admit(request, context)
            let app = try await access.app(try context.parameters.require("app_id"), for: op.record)
            let userID = try context.parameters.require("user_id")
            let answer = try await auth.signOutUser(userID, app.appID, op.requestID)
            try await audit.record(op, "user.sign_out", app: app.appID, kind: "user", target: userID, after: JSONText.encode(answer))
            return JSONCoding.response(body: answer)
        }
        group.post("/admin/api/apps/{app_id}/users/{user_id}/delete") { request, context -> Response in
            let op = try await gate.admit(request, context)
            guard op.record.role != .moderator else { throw ServiceError(.forbidden, "deleting an account is for owners and admins") }
            let app = try await access.app(try context.parameters.require("app_id"), for: op.record)
            let userID = try context.parameters.require("user_id")
            let before = try await auth.userDetail(userID, app.appID, op.requestID)
            try await auth.deleteUser(userID, app.appID, op.requestID)
            try await audit.record(op, "user.delete", app: app.appID, kind: "user", target: userID, before: JSONText.encode(before.user))
            return JSONCoding.response(body: EmptyAnswer())
        }
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
