import Contracts
import Hummingbird
import ServiceKit

/// An app's reports queue (`/admin/apps/{app_id}/reports?state=&kind=`): each group with its age
/// (red past a day), its target as the app shows it, reporters and reasons, and one form with a
/// reason and three buttons — dismiss, hide, ban the author.
struct ReportPages: Sendable {
    let console: Console
    let desk: ReportDesk

    struct GroupRow {
        var kind: String
        var targetID: String
        var age: String
        var overdue: Bool
        var reporters: Int
        var reasons: String
        var preview: String?
        var authorID: String?
        var images: [String]
        var hasImages: Bool
        var contentKind: String?
        var hideable: Bool
        var action: String?
        var open: Bool
    }

    struct View {
        var appID: String
        var state: String
        var kind: String
        var groups: [GroupRow]
        var empty: Bool
        var states: [Choice]
        var kinds: [Choice]
    }

    func register(on group: ServiceApplication.Group) {
        console.page(group, "/admin/apps/{app_id}/reports") { request, context, visit in
            let app = try visit.app(context)
            let filter = try ReportDesk.filter(request.uri.queryParameters)
            let kind = request.uri.queryParameters["kind"].map(String.init) ?? ""
            let rows = try await desk.queue(app, filter, by: visit.op).map { group -> GroupRow in
                let kind = ReportDesk.kind(of: group.targetType) ?? group.targetType
                let images = group.files.compactMap { ContentRow.imageURL($0, appID: app.appID) }
                return GroupRow(
                    kind: kind, targetID: group.targetId, age: Age.text(group.ageSeconds),
                    overdue: group.state == "open" && group.ageSeconds > 24 * 3600, reporters: group.reporters,
                    reasons: group.reasons.joined(separator: " · "), preview: group.preview, authorID: group.authorId,
                    images: images, hasImages: !images.isEmpty,
                    contentKind: ContentKind(rawValue: kind)?.rawValue, hideable: ContentKind(rawValue: kind) != nil, action: group.action,
                    open: group.state == "open")
            }
            let view = View(
                appID: app.appID, state: filter.state, kind: kind, groups: rows, empty: rows.isEmpty,
                states: Choice.list(["open", "closed"], selected: filter.state),
                kinds: Choice.list(["", "user", "post", "comment", "story"], selected: kind))
            return Console.Page(template: "reports", title: "Reports · \(app.name)", content: view, app: app)
        }
        console.action(group, "/admin/apps/{app_id}/reports/{kind}/{target_id}") { _, context, visit in
            let app = try visit.app(context)
            let action = visit.form["action"] ?? ""
            let body = ReportActionRequest(reason: visit.field("reason"), until: try BanDuration.until(visit.field("duration")))
            let answer = try await desk.act(
                action, kind: try context.parameters.require("kind"), target: try context.parameters.require("target_id"), body, app: app,
                by: visit.op)
            return ConsoleRenderer.redirect("/admin/apps/\(app.appID)/reports?done=\(answer.action)")
        }
    }
}
