import Contracts
import ServiceKit

/// The ids of a user's posts, which market-svc owns.
struct PostDirectory: Sendable {
    var postIDs: @Sendable (_ userID: String, _ appID: String, _ requestID: String) async -> [String]

    /// Until market-svc answers, a profile lists no posts rather than failing.
    static func live(_ client: InternalClient) -> PostDirectory {
        PostDirectory { userID, appID, requestID in
            let answer = try? await client.get(
                .market, "/internal/users/\(userID)/post-ids", headers: [(InternalHeader.appID, appID)], requestID: requestID, as: UserIDList.self
            )
            return answer?.userIDs ?? []
        }
    }
}
