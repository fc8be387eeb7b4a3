import Contracts
import Foundation
import ServiceKit

/// API.md §9 comments on book stories: content trimmed to 1–1000 characters, one level of
/// replies (a reply to a reply is 400), the first three replies shown under each comment, the
/// hidden users' comments left out, only the author may change or remove one (403).
struct StoryCommentService: Sendable {
    let comments: any CommentStore
    let stories: StoryService
    let renderer: BookStoryRenderer
    static let repliesShown = 3

    func create(_ fields: StoryCommentFields, by reader: Reader) async throws -> QuotehubComment {
        let userID = try reader.requireUser()
        let story = try await stories.visible(fields.bookStoryId ?? "", to: reader)
        let content = try Self.content(fields.content)
        if let parentID = fields.parentCommentId {
            guard ObjectID.isValid(parentID) else { throw ServiceError.badRequest("invalid parentCommentId") }
            guard let parent = try await comments.comment(id: parentID, target: .bookstory, appID: reader.appID), parent.targetID == story.id else {
                throw ServiceError.notFound("댓글을 찾을 수 없습니다.")
            }
            guard parent.parentID == nil else { throw ServiceError.badRequest("답글에는 답글을 달 수 없습니다.") }
        }
        let now = GlintDate.nowMilliseconds()
        let comment = CommentRecord(
            id: ObjectID.generate(), parentID: fields.parentCommentId, targetID: story.id, creatorID: userID, content: content, createdAt: now,
            updatedAt: now
        )
        try await comments.insert(comment, target: .bookstory, appID: reader.appID)
        return try await renderer.comments([comment], replies: nil, for: reader)[0]
    }

    /// The author's comment edited, or removed with its replies (nil content, nil answer).
    func change(_ id: String, content: String?, by reader: Reader) async throws -> QuotehubComment? {
        let userID = try reader.requireUser()
        guard ObjectID.isValid(id) else { throw ServiceError.badRequest("invalid comment id") }
        let content = try content.map(Self.content)
        guard let comment = try await comments.comment(id: id, target: .bookstory, appID: reader.appID) else {
            throw ServiceError.notFound("댓글을 찾을 수 없습니다.")
        }
        let changed = try await comments.change(
            comment.id, target: .bookstory, targetID: comment.targetID, appID: reader.appID, by: userID, content: content,
            at: GlintDate.nowMilliseconds()
        )
        guard let changed else { return nil }
        return try await renderer.comments([changed], replies: nil, for: reader)[0]
    }

    func list(storyID: String, page: PageRequest, for reader: Reader) async throws -> PageEnvelope<QuotehubComment> {
        let story = try await stories.visible(storyID, to: reader)
        let threads = try await comments.threads(of: .bookstory, id: story.id, hiding: reader.hidden, page: page, replies: Self.repliesShown)
        return PageEnvelope(
            message: "댓글 목록을 불러왔습니다.", data: try await renderer.comments(threads.roots, replies: threads.replies, for: reader),
            pagination: page.pagination(total: threads.total))
    }

    func count(storyID: String, for reader: Reader) async throws -> Int {
        let story = try await stories.visible(storyID, to: reader)
        return try await comments.count(of: .bookstory, id: story.id, hiding: reader.hidden)
    }

    private static func content(_ content: String?) throws -> String {
        try FieldRule.text(content ?? "", "content", 1...1000, trimming: .whitespacesAndNewlines)!
    }
}
