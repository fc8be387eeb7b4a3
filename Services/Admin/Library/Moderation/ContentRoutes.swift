import Contracts
import Hummingbird
import ServiceClients
import ServiceKit

/// A piece of content by kind and id (`GET /admin/api/apps/{app_id}/content/{kind}/{id}`), and its
/// hiding and restoring (`POST …/hide`, `…/restore` with `{reason?}`), asked of the service that
/// keeps it and written to the audit log with the content before and after.
struct ContentRoutes: Sendable {
    let gate: OperatorGate
    let access: OperatorAccess
    let content: ContentClient
    let audit: AuditLog

    func register(on group: ServiceApplication.Group) {
        let path = "/admin/api/apps/{app_id}/content/{kind}/{content_id}"
        group.get(RouterPath(path)) { request, context -> Response in
            let (op, app, kind, id) = try await target(request, context)
            return JSONCoding.response(body: try await content.summary(kind, id, app.appID, op.requestID))
        }
        for (action, hides) in [("hide", true), ("restore", false)] {
            group.post(RouterPath(path + "/" + action)) { request, context -> Response in
                let (op, app, kind, id) = try await target(request, context)
                let body = try await request.decodeIfPresent(as: AdminActionRequest.self, context: context) ?? AdminActionRequest()
                let before = try await content.summary(kind, id, app.appID, op.requestID)
                let moderation = ModerationRequest(operatorID: op.record.id, reason: body.reason)
                let after =
                    hides
                    ? try await content.hide(kind, id, app.appID, moderation, op.requestID)
                    : try await content.restore(kind, id, app.appID, moderation, op.requestID)
                try await audit.record(
                    op, "content.\(action)", app: app.appID, kind: kind.rawValue, target: id, before: JSONText.encode(before),
                    after: JSONText.encode(after))
                return JSONCoding.response(body: after)
            }
        }
    }

    private func target(_ request: Request, _ context: GlintRequestContext) async throws -> (SignedInOperator, AppInfo, ContentKind, String) {
        let op = try await gate.admit(request, context)
        let app = try await access.app(try context.parameters.require("app_id"), for: op.record)
        guard let kind = ContentKind(rawValue: try context.parameters.require("kind")) else {
            throw ServiceError.notFound("kind must be one of \(ContentKind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let id = try context.parameters.require("content_id")
        guard ObjectID.isValid(id) else { throw ServiceError.notFound("no such \(kind.rawValue)") }
        return (op, app, kind, id)
    }
}
