import Contracts
import HTTPTypes
import Hummingbird
import ServiceClients
import ServiceKit

/// Content by kind and id, or an author's newest (`/admin/apps/{app_id}/content?kind=&id=` or
/// `&author=`): what it says, its images, who wrote it, whether it is hidden — a chat message
/// among the messages around it — with hide and restore and a reason; and the images themselves
/// (`…/files/<area>/<name>`), which a browser cannot fetch from the gateway without the app key.
struct ContentPages: Sendable {
    let console: Console
    let desk: ContentDesk

    struct View {
        var appID: String
        var kinds: [Choice]
        var id: String
        var author: String
        var found: ContentSummary?
        var row: ContentRow?
        var around: [ContentRow]
        var hasAround: Bool
        var authored: [ContentRow]
        var searchedAuthor: Bool
        var kind: String
    }

    func register(on group: ServiceApplication.Group) {
        console.page(group, "/admin/apps/{app_id}/content") { request, context, visit in
            let app = try visit.app(context)
            let query = request.uri.queryParameters
            let kindName = query["kind"].map(String.init) ?? ContentKind.post.rawValue
            let id = (query["id"].map(String.init) ?? "").trimmingCharacters(in: .whitespaces)
            let author = (query["author"].map(String.init) ?? "").trimmingCharacters(in: .whitespaces)
            var view = View(
                appID: app.appID, kinds: Choice.list(ContentKind.allCases.map(\.rawValue), selected: kindName), id: id, author: author,
                around: [], hasAround: false, authored: [], searchedAuthor: false, kind: kindName)
            if !id.isEmpty {
                let (kind, id) = try ContentDesk.target(kind: kindName, id: id)
                let found = try await desk.summary(kind, id, app: app, by: visit.op)
                (view.found, view.row) = (found, ContentRow(found))
                if kind == .message {
                    view.around = try await desk.around(message: id, app: app, by: visit.op).map { ContentRow($0, marked: $0.id == id) }
                    view.hasAround = !view.around.isEmpty
                }
            } else if !author.isEmpty {
                let (kind, author) = try ContentDesk.target(kind: kindName, id: author)
                view.authored = try await desk.find(kind, ContentFind(authorId: author, limit: 50), app: app, by: visit.op).map { ContentRow($0) }
                view.searchedAuthor = true
            }
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
        console.resource(group, "/admin/apps/{app_id}/files/{area}/{name}") { request, context, visit in
            let app = try visit.app(context)
            let stored = "/data/\(try context.parameters.require("area"))/\(try context.parameters.require("name"))"
            let file = try await desk.file(stored, etag: request.headers[.ifNoneMatch], app: app, by: visit.op)
            return Self.response(file)
        }
    }

    /// The service's answer passed on: only images, kept by the browser for an hour and no one else.
    private static func response(_ file: ContentClient.StoredFile) -> Response {
        guard file.status == 200 || file.status == 304 else { return Response(status: .notFound) }
        var headers: HTTPFields = [.cacheControl: "private, max-age=3600", HTTPField.Name("X-Content-Type-Options")!: "nosniff"]
        if let etag = file.etag { headers[.eTag] = etag }
        guard file.status == 200 else { return Response(status: .notModified, headers: headers) }
        headers[.contentType] = file.contentType.flatMap { $0.hasPrefix("image/") ? $0 : nil } ?? "application/octet-stream"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: file.body))
    }
}
