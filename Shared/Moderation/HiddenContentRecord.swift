import Contracts
import GRDB

/// A piece of content an operator hid (`hidden_content`, in the service that keeps the content):
/// the rows stay where they are; reads leave hidden ones out, and restoring deletes this row.
package struct HiddenContentRecord: Codable, Sendable, Equatable, FetchableRecord {
    package var appID: String
    package var kind: ContentKind
    package var contentID: String
    package var operatorID: String
    package var reason: String
    package var hiddenAt: Int64

    package init(appID: String, kind: ContentKind, contentID: String, operatorID: String, reason: String, hiddenAt: Int64) {
        (self.appID, self.kind, self.contentID, self.operatorID, self.reason, self.hiddenAt) = (appID, kind, contentID, operatorID, reason, hiddenAt)
    }

    enum CodingKeys: String, CodingKey {
        case kind, reason
        case appID = "app_id"
        case contentID = "content_id"
        case operatorID = "operator_id"
        case hiddenAt = "hidden_at"
    }
}
