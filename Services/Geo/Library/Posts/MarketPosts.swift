import Contracts
import ServiceKit

/// market-svc renders the posts a search found, as the caller (whose token goes along) may see them.
struct MarketPosts: Sendable {
    var posts: @Sendable (_ ids: [String], _ authorization: String, _ appID: String, _ requestID: String) async throws -> [PostAnswer]

    static func live(_ client: InternalClient) -> MarketPosts {
        MarketPosts { ids, authorization, appID, requestID in
            try await client.post(
                .market, "/internal/posts/batch", body: PostBatchRequest(postIDs: ids),
                headers: [(InternalHeader.appID, appID), ("Authorization", authorization)], requestID: requestID, as: DataList<PostAnswer>.self
            ).data
        }
    }
}
