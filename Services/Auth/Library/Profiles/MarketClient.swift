import Contracts
import ServiceKit

/// What auth-svc asks market-svc: the ids of a user's posts, which market-svc owns.
struct MarketClient: Sendable {
    var postIDs: @Sendable (_ userID: String, _ appID: String, _ requestID: String) async throws -> [String]

    static func live(_ client: InternalClient) -> MarketClient {
        MarketClient { userID, appID, requestID in
            try await client.call(InternalEndpoints.Market.postIDs, userID, for: .init(appID: appID, requestID: requestID)).userIDs
        }
    }

    static let failing = MarketClient { _, _, _ in throw ServiceError.unavailable(.market) }
}
