import Contracts
import Hummingbird
import ServiceKit

/// Content by kind and id (`/admin/apps/{app_id}/content?kind=&id=`): what it says, who wrote it,
/// whether it is hidden; hide and restore with a reason.
struct ContentPages: Sendable {
    let console: Console
    let desk: ContentDesk

    struct View {
        var appID: String
        var kinds: [Choice]
        var id: String
        var found: ContentSummary?
        var kind: String
    }

    func register(on group: ServiceApplication.Group) {
        console.page(group, "/admin/apps/{app_id}/content") { request, context, visit in
            let app = try visit.app(context)
            let query = request.uri.queryParameters
            let kindName = query["kind"].map(String.init) ?? ContentKind.post.rawValue
            let id = (query["id"].map(String.init) ?? "").trimmingCharacters(in: .whitespaces)
            var found: ContentSummary?
            if !id.isEmpty {
                let (kind, id) = try ContentDesk.target(kind: kindName, id: id)
                found = try await desk.summary(kind, id, app: app, by: visit.op)
            }
            let view = View(
                appID: app.appID, kinds: Choice.list(ContentKind.allCases.map(\.rawValue), selected: kindName), id: id, found: found,
                kind: kindName)
            return Console.Page(template: "content", title: "Content · \(app.name)", content: view, app: app)
        }
        for (action, hides) in [("hide", true), ("restore", false)] {
            console.action(group, RouterPath("/admin/apps/{app_id}/content/{kind}/{content_id}/" + action)) { _, context, visit in
                let app = try visit.app(context)
                let (kind, id) = try ContentDesk.target(
                    kind: try context.parameters.require("kind"), id: try context.parameters.require("content_id"))
                _ = try await desk.change(kind, id, hides: hides, reason: visit.field("reason"), app: app, by: visit.op)
                return ConsoleRenderer.redirect(
                    "/admin/apps/\(app.appID)/content?kind=\(kind.rawValue)&id=\(id)&done=\(hides ? "hidden" : "restored")")
            }
        }
    }
}
