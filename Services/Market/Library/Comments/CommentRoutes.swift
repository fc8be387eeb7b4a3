import Contracts
import Hummingbird
import ServiceKit

/// `POST {target}/comments`, `PUT` and `DELETE {target}/comments/{comment_id}` for one kind of
/// target (`/v1/posts/{post_id}`, `/v1/filters/{filter_id}`): the target's service says whether
/// the caller may see it, the comment service does the rest.
struct CommentRoutes: Sendable {
    let comments: CommentService
    let target: CommentTarget
    /// The target's path, ending in its id parameter.
    let path: String
    let parameter: String
    /// The target's id when the caller may see it (else its service's 400/404).
    let visible: @Sendable (_ id: String, _ caller: AuthenticatedUser) async throws -> String

    func register(on group: ServiceApplication.Group) {
        group.post(RouterPath(path + "/comments")) { request, context -> CommentAnswer in
            let body = try await request.decode(as: CommentRequest.self, context: context)
            let (caller, targetID) = try await visibleTarget(context)
            return try await comments.create(caller, target: target, targetID: targetID, body, requestID: context.requestID)
        }
        group.put(RouterPath(path + "/comments/{comment_id}")) { request, context -> CommentAnswer in
            let body = try await request.decode(as: CommentRequest.self, context: context)
            let changed = try await change(context, content: body.content)
            guard let changed else { throw ServiceError(.internalError, "comment vanished") }
            return changed
        }
        group.delete(RouterPath(path + "/comments/{comment_id}")) { _, context -> EmptyAnswer in
            _ = try await change(context, content: nil)
            return EmptyAnswer()
        }
    }

    private func visibleTarget(_ context: GlintRequestContext) async throws -> (AuthenticatedUser, String) {
        let caller = try context.requireUser()
        return (caller, try await visible(try context.parameters.require(parameter), caller))
    }

    private func change(_ context: GlintRequestContext, content: String?) async throws -> CommentAnswer? {
        let (caller, targetID) = try await visibleTarget(context)
        return try await comments.change(
            caller, target: target, targetID: targetID, commentID: try context.parameters.require("comment_id"), content: content,
            requestID: context.requestID
        )
    }
}
