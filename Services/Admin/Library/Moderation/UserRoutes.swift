import Contracts
import Foundation
import Hummingbird
import ServiceClients
import ServiceKit

/// A user's ban and its lifting (`POST /admin/api/apps/{app_id}/users/{user_id}/ban`, `…/unban`):
/// asked of auth-svc, which makes every process refuse the user's tokens within a poll's answer.
struct UserRoutes: Sendable {
    let gate: OperatorGate
    let access: OperatorAccess
    let auth: AuthClient
    let audit: AuditLog

    func register(on group: ServiceApplication.Group) {
        group.post("/admin/api/apps/{app_id}/users/{user_id}/ban") { request, context -> Response in
            let op = try await gate.admit(request, context)
            let app = try await access.app(try context.parameters.require("app_id"), for: op.record)
            let userID = try context.parameters.require("user_id")
            let body = try await request.decode(as: AdminBanRequest.self, context: context)
            let until = try body.until.map { text -> Date in
                guard let milliseconds = GlintDate.milliseconds(from: text) else {
                    throw ServiceError.badRequest("until must be a date like 2025-01-31T00:00:00.000Z")
                }
                return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            }
            let state = try await auth.ban(userID, app.appID, BanRequest(reason: body.reason, until: until, operatorID: op.record.id), op.requestID)
            let answer = Self.answer(state)
            try await audit.record(op, "user.ban", app: app.appID, kind: "user", target: userID, after: JSONText.encode(answer))
            return JSONCoding.response(body: answer)
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

    static func answer(_ state: BanState) -> AdminBanAnswer {
        AdminBanAnswer(
            userId: state.userID, reason: state.reason, until: state.until.map { GlintDate.string(fromMilliseconds: Self.milliseconds($0)) },
            operatorId: state.operatorID, createdAt: GlintDate.string(fromMilliseconds: Self.milliseconds(state.createdAt)))
    }

    private static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }
}
