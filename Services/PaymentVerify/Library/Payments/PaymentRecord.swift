import Contracts
import GRDB
import ServiceKit

/// A row of `payment`: what was verified, for whom, and the PG's receipt (JSON).
struct PaymentRecord: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "payment"

    enum Kind: String, Codable, Sendable {
        case order
        case coins
    }

    var id: String
    var impUID: String
    var kind: Kind
    var appID: String
    var userID: String
    var merchantUID: String
    var filterID: String
    var amount: Int
    var coins: Int
    var productName: String
    var receipt: String
    var paidAt: Int64
    var createdAt: Int64
    var updatedAt: Int64

    enum CodingKeys: String, CodingKey, ColumnExpression {
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
    }

    func receiptAnswer() throws -> PaymentReceipt {
        try JSONText.decode(receipt).orThrow()
    }

    var grant: PaymentGrantEvent {
        PaymentGrantEvent(kind: kind == .order ? .order : .coins, impUID: impUID, appID: appID, userID: userID, merchantUID: merchantUID, coins: coins)
    }
}
