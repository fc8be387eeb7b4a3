import Contracts
import ServiceKit

/// What geo-svc asks market-svc: the posts a search found, rendered as the caller (whose token
/// goes along) may see them.
struct MarketClient: Sendable {
    var posts: @Sendable (_ ids: [String], _ authorization: String, _ appID: String, _ requestID: String) async throws -> [PostAnswer]

    static func live(_ client: InternalClient) -> MarketClient {
        MarketClient { ids, authorization, appID, requestID in
            try await client.call(
                InternalEndpoints.Market.postBatch, body: PostBatchRequest(postIDs: ids),
                for: .init(appID: appID, requestID: requestID, authorization: authorization)
            ).data
        }
    }

    static let failing = MarketClient { _, _, _, _ in throw ServiceError.unavailable(.market) }
}
