import Contracts
import ServiceKit

/// Comments as API.md §2 shapes them: per target, top-level comments with their replies nested.
enum CommentRenderer {
    static func tree(_ comments: [CommentRecord], users: [String: UserInfoFull]) -> [String: [CommentAnswer]] {
        let replies = Dictionary(grouping: comments.filter { $0.parentID != nil }, by: { $0.parentID! })
        var byTarget: [String: [CommentAnswer]] = [:]
        for comment in comments where comment.parentID == nil {
            byTarget[comment.targetID, default: []].append(
                answer(
                    comment, creator: users.info(comment.creatorID),
                    replies: (replies[comment.id] ?? []).map { answer($0, creator: users.info($0.creatorID), replies: nil) })
            )
        }
        return byTarget
    }

    /// One comment: a top-level one carries its (possibly empty) replies, a reply none.
    static func answer(_ comment: CommentRecord, creator: UserInfo, replies: [CommentAnswer]?) -> CommentAnswer {
        CommentAnswer(
            commentID: comment.id, content: comment.content, createdAt: GlintDate.string(fromMilliseconds: comment.createdAt),
            creator: creator, replies: replies)
    }
}
