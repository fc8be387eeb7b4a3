import Contracts
import Foundation
import Hummingbird
import ServiceClients
import ServiceKit

/// The reports queue (`GET /admin/api/apps/{app_id}/reports?state=open&kind=&limit=`): groups by
/// target, oldest first, each with a preview of its target; and the three actions on a group
/// (`POST …/reports/{kind}/{target_id}/dismiss|hide|ban`), each closing the group's reports with
/// the action taken.
struct ReportRoutes: Sendable {
    let gate: OperatorGate
    let access: OperatorAccess
    let auth: AuthClient
    let content: ContentClient
    let moderation: ModerationActions
    let audit: AuditLog

    /// The queue's kinds and the report target types auth-svc keeps them under.
    static let targetTypes = ["user": "user", "post": "post", "comment": "comment", "story": "bookstory"]

    func register(on group: ServiceApplication.Group) {
        group.get("/admin/api/apps/{app_id}/reports") { request, context -> Response in
            let op = try await gate.admit(request, context)
            let app = try await access.app(try context.parameters.require("app_id"), for: op.record)
            let query = request.uri.queryParameters
            let state = query["state"].map(String.init) ?? "open"
            let kind = query["kind"].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
            if let kind, Self.targetTypes[kind] == nil { throw ServiceError.badRequest("kind must be user, post, comment or story") }
            let limit = try query["limit"].map { text -> Int in
                guard let value = Int(text), (1...200).contains(value) else { throw ServiceError.badRequest("limit must be 1 to 200") }
                return value
            }
            let groups = try await auth.reportQueue(
                app.appID, ReportQueueQuery(state: state, targetType: kind.flatMap { Self.targetTypes[$0] }, limit: limit ?? 50), op.requestID)
            return JSONCoding.response(body: try await previewed(groups, app: app, op: op))
        }
        group.post("/admin/api/apps/{app_id}/reports/{kind}/{target_id}/{action}") { request, context -> Response in
            let op = try await gate.admit(request, context)
            let app = try await access.app(try context.parameters.require("app_id"), for: op.record)
            let kindName = try context.parameters.require("kind")
            guard let targetType = Self.targetTypes[kindName] else { throw ServiceError.notFound("kind must be user, post, comment or story") }
            let targetID = try context.parameters.require("target_id")
            guard ObjectID.isValid(targetID) else { throw ServiceError.notFound("no such target") }
            let body = try await request.decodeIfPresent(as: ReportActionRequest.self, context: context) ?? ReportActionRequest()
            let action: String
            switch try context.parameters.require("action") {
            case "dismiss":
                action = "dismissed"
            case "hide":
                guard let kind = ContentKind(rawValue: kindName) else { throw ServiceError.badRequest("a user is banned, not hidden") }
                _ = try await moderation.hide(kind, targetID, app: app, reason: body.reason, by: op)
                action = "hidden"
            case "ban":
                let author = try await author(kindName, targetID, app: app, op: op)
                _ = try await moderation.ban(author, app: app, reason: body.reason ?? "", until: body.until, by: op)
                action = "banned"
            default:
                throw ServiceError.notFound("action must be dismiss, hide or ban")
            }
            let closed = try await auth.closeReports(
                app.appID, ReportClosing(targetType: targetType, targetID: targetID, action: action, operatorID: op.record.id), op.requestID)
            let answer = ReportActionAnswer(closed: closed.closed, action: action)
            try await audit.record(op, "reports.close", app: app.appID, kind: kindName, target: targetID, after: JSONText.encode(answer))
            return JSONCoding.response(body: answer)
        }
    }

    /// The user a ban from the queue falls on: the reported user, or the content's author.
    private func author(_ kindName: String, _ targetID: String, app: AppInfo, op: SignedInOperator) async throws -> String {
        guard let kind = ContentKind(rawValue: kindName) else { return targetID }
        return try await content.summary(kind, targetID, app.appID, op.requestID).authorId
    }

    /// Each group with its target as operators see it: a user's nick, a content's text and author.
    private func previewed(_ groups: [ReportGroupAnswer], app: AppInfo, op: SignedInOperator) async throws -> [ReportGroupAnswer] {
        let userIDs = groups.filter { $0.targetType == "user" }.map(\.targetId)
        let users = userIDs.isEmpty ? [:] : try await auth.users(userIDs, app.appID, op.requestID)
        var shown: [ReportGroupAnswer] = []
        for var group in groups {
            if group.targetType == "user" {
                (group.preview, group.authorId) = (users[group.targetId]?.nick, group.targetId)
            } else if let kind = Self.targetTypes.first(where: { $0.value == group.targetType }).flatMap({ ContentKind(rawValue: $0.key) }) {
                // Content already deleted by its author (or of a kind not kept for operators) shows no preview.
                if let summary = try? await content.summary(kind, group.targetId, app.appID, op.requestID) {
                    (group.preview, group.authorId) = (summary.preview, summary.authorId)
                }
            }
            shown.append(group)
        }
        return shown
    }
}
