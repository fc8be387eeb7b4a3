import Contracts
import Foundation
import ServiceClients
import ServiceKit

/// Comments and one level of replies on whatever they hang off (API.md §2): posts and filters
/// alike. The target's own rules (who may see it) are checked by its service before these run.
struct CommentService: Sendable {
    let store: any CommentStore
    let users: AuthClient

    func create(
        _ caller: AuthenticatedUser, target: CommentTarget, targetID: String, _ request: CommentRequest, requestID: String
    ) async throws -> CommentAnswer {
        let content = try Self.validContent(request.content)
        if let parent = request.parentCommentID, !ObjectID.isValid(parent) { throw ServiceError.badRequest("invalid parent_comment_id") }
        let now = GlintDate.nowMilliseconds()
        let comment = CommentRecord(
            id: ObjectID.generate(), parentID: request.parentCommentID, targetID: targetID, creatorID: caller.userID, content: content,
            createdAt: now, updatedAt: now
        )
        try await store.insert(comment, target: target, appID: caller.appID)
        return try await answer(comment, caller: caller, requestID: requestID)
    }

    /// The caller's own comment edited, or deleted (nil content, nil answer).
    func change(
        _ caller: AuthenticatedUser, target: CommentTarget, targetID: String, commentID: String, content: String?, requestID: String
    ) async throws -> CommentAnswer? {
        guard ObjectID.isValid(commentID) else { throw ServiceError.badRequest("invalid comment id") }
        let content = try content.map(Self.validContent)
        let changed = try await store.change(
            commentID, target: target, targetID: targetID, appID: caller.appID, by: caller.userID, content: content, at: GlintDate.nowMilliseconds()
        )
        guard let changed else { return nil }
        return try await answer(changed, caller: caller, requestID: requestID)
    }

    private static func validContent(_ content: String) throws -> String {
        try FieldRule.text(content, "content", 1...1000, trimming: .whitespacesAndNewlines)!
    }

    /// A new or edited comment as answered to its author.
    private func answer(_ comment: CommentRecord, caller: AuthenticatedUser, requestID: String) async throws -> CommentAnswer {
        let creator = try await users.users([comment.creatorID], caller.appID, requestID).info(comment.creatorID)
        return CommentRenderer.answer(comment, creator: creator, replies: comment.parentID == nil ? [] : nil)
    }
}
