import Contracts
import ServiceKit

/// Posts as API.md §2 shapes them: with their likes, their comments (without hidden users') and
/// every user they mention, from one user lookup.
struct PostRenderer: Sendable {
    let users: UsersClient

    func posts(_ records: [PostRecord], extras: PostExtras, hiding hidden: Set<String>, appID: String, requestID: String) async throws -> [PostAnswer] {
        guard !records.isEmpty else { return [] }
        let comments = extras.comments.filter { !hidden.contains($0.creatorID) }
        let people = try await users.users(Array(Set(records.map(\.creatorID) + comments.map(\.creatorID))), appID, requestID)
        let tree = CommentRenderer.tree(comments, users: people)
        var likes: [String: [Int: [String]]] = [:]
        for like in extras.likes { likes[like.postID, default: [:]][like.kind, default: []].append(like.userID) }
        return records.map { record in
            PostAnswer(
                postID: record.id, productID: record.productID, category: record.category, title: record.title, price: record.price,
                content: record.content, contents: [record.content1, record.content2, record.content3, record.content4, record.content5],
                createdAt: GlintDate.string(fromMilliseconds: record.createdAt), updatedAt: GlintDate.string(fromMilliseconds: record.updatedAt),
                creator: people.info(record.creatorID), files: record.fileList, likes: likes[record.id]?[1] ?? [], likes2: likes[record.id]?[2] ?? [],
                buyers: [], hashTags: record.hashTagList, comments: tree[record.id] ?? [],
                geolocation: Geolocation(longitude: record.longitude ?? 0, latitude: record.latitude ?? 0), isPublic: record.isPublic
            )
        }
    }
}
