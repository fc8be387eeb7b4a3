import Contracts
import Foundation
import Hummingbird
import Logging
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
    let logger: Logger

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

    /// Each group with its target as operators see it: a user's nick and profile image, a
    /// content's text, images and author. One call per kind for the whole page, all at once.
    private func previewed(_ groups: [ReportGroupAnswer], app: AppInfo, op: SignedInOperator) async throws -> [ReportGroupAnswer] {
        var shown = groups
        let userIDs = groups.filter { $0.targetType == "user" }.map(\.targetId)
        async let users = userIDs.isEmpty ? [:] : auth.users(userIDs, app.appID, op.requestID)
        let byKind = Dictionary(
            grouping: groups.compactMap { group in
                Self.kind(of: group.targetType).flatMap(ContentKind.init(rawValue:)).map { ($0, group.targetId) }
            }
        ) { $0.0 }.mapValues { $0.map(\.1) }
        let found = await withTaskGroup(of: [ContentSummary].self) { tasks in
            for (kind, ids) in byKind {
                // A service that does not answer leaves its previews out, not the queue (and says so).
                tasks.addTask {
                    do {
                        return try await content.find(kind, ContentFind(ids: ids), app: app, by: op)
                    } catch {
                        logger.warning(
                            "report previews left out",
                            metadata: ["kind": "\(kind.rawValue)", "count": "\(ids.count)", "error": "\(error)", "request_id": "\(op.requestID)"])
                        return []
                    }
                }
            }
            return await tasks.reduce(into: [String: ContentSummary]()) { found, summaries in
                for summary in summaries { found[summary.kind.rawValue + "/" + summary.id] = summary }
            }
        }
        let people = try await users
        for (index, group) in groups.enumerated() {
            if group.targetType == "user", let user = people[group.targetId] {
                (shown[index].preview, shown[index].authorId) = (user.nick, group.targetId)
                shown[index].files = user.profileImage.map { [$0] } ?? []
            } else if let kind = Self.kind(of: group.targetType), let summary = found[kind + "/" + group.targetId] {
                // Content already deleted by its author shows no preview.
                (shown[index].preview, shown[index].authorId, shown[index].files) = (summary.preview, summary.authorId, summary.files)
            }
        }
        return shown
    }
}
