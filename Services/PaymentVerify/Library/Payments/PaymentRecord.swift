import Contracts
import ServiceKit

/// A verified payment: what it was for, for whom, and the PG's receipt (JSON).
struct PaymentRecord: Codable, Sendable {
    enum Kind: String, Codable, Sendable {
        case order
        case coins
    }

    var id, impUID: String
    var kind: Kind
    var appID, userID, merchantUID, filterID: String
    var amount, coins: Int
    var productName, receipt: String
    var paidAt, createdAt, updatedAt: Int64
    /// When the PG reported it cancelled or refunded after the grant.
    var refundedAt: Int64? = nil

    enum CodingKeys: String, CodingKey {
        case id, kind, amount, coins, receipt
        case impUID = "imp_uid"
        case appID = "app_id"
        case userID = "user_id"
        case merchantUID = "merchant_uid"
        case filterID = "filter_id"
        case productName = "product_name"
        case paidAt = "paid_at"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case refundedAt = "refunded_at"
    }

    var grant: PaymentGrantEvent {
        PaymentGrantEvent(
            kind: kind == .order ? .order : .coins, impUID: impUID, appID: appID, userID: userID, merchantUID: merchantUID, coins: coins)
    }
}
