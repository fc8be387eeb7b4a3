import Contracts
import Hummingbird
import ServiceKit

/// A piece of content in the admin API (`GET /admin/api/apps/{app_id}/content/{kind}/{id}`), a
/// message's neighbours (`…/around`), an author's newest (`GET …/content/{kind}?author=&limit=`),
/// and hiding and restoring (`POST …/hide`, `…/restore` with `{reason?}`).
struct ContentRoutes: Sendable {
    let gate: OperatorGate
    let access: OperatorAccess
    let desk: ContentDesk

    func register(on group: ServiceApplication.Group) {
        let path = "/admin/api/apps/{app_id}/content/{kind}/{content_id}"
        group.get(RouterPath(path)) { request, context -> Response in
            let (op, app, kind, id) = try await target(request, context)
            return JSONCoding.response(body: try await desk.summary(kind, id, app: app, by: op))
        }
        group.get(RouterPath(path + "/around")) { request, context -> Response in
            let (op, app, kind, id) = try await target(request, context)
            guard kind == .message else { throw ServiceError.notFound("only a message has neighbours") }
            return JSONCoding.response(body: try await desk.around(message: id, app: app, by: op))
        }
        group.get("/admin/api/apps/{app_id}/content/{kind}") { request, context -> Response in
            let op = try await gate.admit(request, context)
            let app = try await access.app(try context.parameters.require("app_id"), for: op.record)
            let query = request.uri.queryParameters
            guard let authorID = query["author"].map(String.init), !authorID.isEmpty else { throw ServiceError.badRequest("author is required") }
            let (kind, author) = try ContentDesk.target(kind: try context.parameters.require("kind"), id: authorID)
            let limit = try query["limit"].map { text -> Int in
                guard let value = Int(text), (1...ContentFind.maxLimit).contains(value) else {
                    throw ServiceError.badRequest("limit must be 1 to \(ContentFind.maxLimit)")
                }
                return value
            }
            return JSONCoding.response(body: try await desk.find(kind, ContentFind(authorId: author, limit: limit ?? 20), app: app, by: op))
        }
        for (action, hides) in [("hide", true), ("restore", false)] {
            group.post(RouterPath(path + "/" + action)) { request, context -> Response in
                let (op, app, kind, id) = try await target(request, context)
                let body = try await request.decodeIfPresent(as: AdminActionRequest.self, context: context) ?? AdminActionRequest()
                return JSONCoding.response(body: try await desk.change(kind, id, hides: hides, reason: body.reason, app: app, by: op))
            }
        }
    }

    private func target(_ request: Request, _ context: GlintRequestContext) async throws -> (SignedInOperator, AppInfo, ContentKind, String) {
        let op = try await gate.admit(request, context)
        let app = try await access.app(try context.parameters.require("app_id"), for: op.record)
        let (kind, id) = try ContentDesk.target(kind: try context.parameters.require("kind"), id: try context.parameters.require("content_id"))
        return (op, app, kind, id)
    }
}
