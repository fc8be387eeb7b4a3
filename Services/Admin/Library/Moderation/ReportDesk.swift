import Contracts
import Foundation
import Hummingbird
import ServiceClients
import ServiceKit

/// The reports queue and its three actions, shared by the admin API and the console: groups by
/// target, oldest first, each with a preview of its target; `dismiss`, `hide` or `ban` closes a
/// group's reports with the action taken.
struct ReportDesk: Sendable {
    let auth: AuthClient
    let content: ContentDesk
    let moderation: ModerationActions
    let audit: AuditLog

    /// The queue's kinds and the report target types auth-svc keeps them under.
    static let targetTypes = ["user": "user", "post": "post", "comment": "comment", "story": "bookstory"]
    static let actions = ["dismiss", "hide", "ban"]

    /// `?state=open|closed&kind=&limit=`, as the API and the console's queue page take it.
    static func filter(_ query: Parameters) throws -> ReportQueueQuery {
        let state = query["state"].map(String.init).flatMap { $0.isEmpty ? nil : $0 } ?? "open"
        guard state == "open" || state == "closed" else { throw ServiceError.badRequest("state must be open or closed") }
        let kind = query["kind"].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
        if let kind, targetTypes[kind] == nil { throw ServiceError.badRequest("kind must be user, post, comment or story") }
        let limit = try query["limit"].map { text -> Int in
            guard let value = Int(text), (1...200).contains(value) else { throw ServiceError.badRequest("limit must be 1 to 200") }
            return value
        }
        return ReportQueueQuery(state: state, targetType: kind.flatMap { targetTypes[$0] }, limit: limit ?? 50)
    }

    func queue(_ app: AppInfo, _ filter: ReportQueueQuery, by op: SignedInOperator) async throws -> [ReportGroupAnswer] {
        try await previewed(try await auth.reportQueue(app.appID, filter, op.requestID), app: app, op: op)
    }

    /// How many targets of the app have open reports and the oldest's age (the overview's).
    func pending(_ app: AppInfo, by op: SignedInOperator) async throws -> OpenReportsSummary {
        try await auth.openReports(app.appID, op.requestID)
    }

    /// Closes a group with `action` (`dismiss`, `hide` or `ban`); unknown kinds and actions are 404.
    func act(
        _ actionName: String, kind kindName: String, target targetID: String, _ body: ReportActionRequest, app: AppInfo,
        by op: SignedInOperator
    ) async throws -> ReportActionAnswer {
        guard let targetType = Self.targetTypes[kindName] else { throw ServiceError.notFound("kind must be user, post, comment or story") }
        guard ObjectID.isValid(targetID) else { throw ServiceError.notFound("no such target") }
        let action: String
        switch actionName {
        case "dismiss":
            action = "dismissed"
        case "hide":
            guard let kind = ContentKind(rawValue: kindName) else { throw ServiceError.badRequest("a user is banned, not hidden") }
            _ = try await content.change(kind, targetID, hides: true, reason: body.reason, app: app, by: op)
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
        return answer
    }

    /// The queue's kind name of a report target type (`bookstory` → `story`).
    static func kind(of targetType: String) -> String? {
        targetTypes.first { $0.value == targetType }?.key
    }

    /// The user a ban from the queue falls on: the reported user, or the content's author.
    private func author(_ kindName: String, _ targetID: String, app: AppInfo, op: SignedInOperator) async throws -> String {
        guard let kind = ContentKind(rawValue: kindName) else { return targetID }
        return try await content.summary(kind, targetID, app: app, by: op).authorId
    }

    /// Each group with its target as operators see it: a user's nick, a content's text and author.
    /// The contents are asked eight at a time (one call each), so a page of groups costs a few
    /// round trips, not one per group.
    private func previewed(_ groups: [ReportGroupAnswer], app: AppInfo, op: SignedInOperator) async throws -> [ReportGroupAnswer] {
        let userIDs = groups.filter { $0.targetType == "user" }.map(\.targetId)
        let users = userIDs.isEmpty ? [:] : try await auth.users(userIDs, app.appID, op.requestID)
        var shown = groups
        for (index, group) in groups.enumerated() where group.targetType == "user" {
            (shown[index].preview, shown[index].authorId) = (users[group.targetId]?.nick, group.targetId)
        }
        let contents = groups.enumerated().compactMap { index, group in
            Self.kind(of: group.targetType).flatMap { ContentKind(rawValue: $0) }.map { (index, $0, group.targetId) }
        }
        for batch in stride(from: 0, to: contents.count, by: 8).map({ contents[$0..<min($0 + 8, contents.count)] }) {
            await withTaskGroup(of: (Int, ContentSummary?).self) { tasks in
                for (index, kind, id) in batch {
                    // Content already deleted by its author (or of a kind not kept for operators) shows no preview.
                    tasks.addTask { (index, try? await content.summary(kind, id, app: app, by: op)) }
                }
                for await (index, summary) in tasks {
                    if let summary { (shown[index].preview, shown[index].authorId) = (summary.preview, summary.authorId) }
                }
            }
        }
        return shown
    }
}
