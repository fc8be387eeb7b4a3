import Contracts
import ServiceClients
import ServiceKit

/// Posts as API.md §2 shapes them: with their likes, their comments (without hidden users') and
/// every user they mention, from one user lookup.
struct PostRenderer: Sendable {
    let users: AuthClient

    /// The answers in the order of `records`, and those of them that hid no comment (they are the
    /// same for every reader, and may be kept).
    func posts(
        _ records: [PostRecord], extras: PostExtras, hiding hidden: Set<String>, appID: String, requestID: String
    ) async throws -> (answers: [PostAnswer], complete: [PostAnswer]) {
        guard !records.isEmpty else { return ([], []) }
        let comments = extras.comments.filter { !hidden.contains($0.creatorID) }
        let partial = Set(extras.comments.lazy.filter { hidden.contains($0.creatorID) }.map(\.targetID))
        let people = try await users.users(Array(Set(records.map(\.creatorID) + comments.map(\.creatorID))), appID, requestID)
        let tree = CommentRenderer.tree(comments, users: people)
        var likes: [String: [Int: [String]]] = [:]
        for like in extras.likes { likes[like.postID, default: [:]][like.kind, default: []].append(like.userID) }
        let answers = records.map { record in
            PostAnswer(
                postID: record.id, productID: record.productID, category: record.category, title: record.title, price: record.price,
                content: record.content, contents: [record.content1, record.content2, record.content3, record.content4, record.content5],
                createdAt: GlintDate.string(fromMilliseconds: record.createdAt), updatedAt: GlintDate.string(fromMilliseconds: record.updatedAt),
                creator: people.info(record.creatorID), files: record.fileList, likes: likes[record.id]?[1] ?? [], likes2: likes[record.id]?[2] ?? [],
                buyers: [], hashTags: record.hashTagList, comments: tree[record.id] ?? [],
                geolocation: Geolocation(longitude: record.longitude ?? 0, latitude: record.latitude ?? 0), isPublic: record.isPublic
            )
        }
        return (answers, partial.isEmpty ? answers : answers.filter { !partial.contains($0.postID) })
    }

    /// Kept answers with their users as they are now (nicknames and pictures change).
    func withCurrentUsers(_ answers: [PostAnswer], appID: String, requestID: String) async throws -> [PostAnswer] {
        guard !answers.isEmpty else { return [] }
        var ids = Set(answers.map(\.creator.userID))
        for answer in answers { ids.formUnion(answer.commentCreators) }
        let people = try await users.users(Array(ids), appID, requestID)
        return answers.map { answer in
            var answer = answer
            answer.creator = people.info(answer.creator.userID)
            for index in answer.comments.indices {
                answer.comments[index].creator = people.info(answer.comments[index].creator.userID)
                guard let replies = answer.comments[index].replies else { continue }
                answer.comments[index].replies = replies.map { reply in
                    var reply = reply
                    reply.creator = people.info(reply.creator.userID)
                    return reply
                }
            }
            return answer
        }
    }
}
