/// geo-svc → market-svc: the posts a radius search found, rendered for the caller whose token
/// comes with the request (at most `maxCount` ids; unknown, hidden and blocked posts are left out).
package struct PostBatchRequest: Codable, Sendable, Equatable {
    package var postIDs: [String]

    package init(postIDs: [String]) {
        self.postIDs = postIDs
    }

    enum CodingKeys: String, CodingKey {
        case postIDs = "post_ids"
    }

    package static let maxCount = 500
}
