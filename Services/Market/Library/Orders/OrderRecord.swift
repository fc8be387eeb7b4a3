import Contracts
import GRDB

/// A row of `purchase_order`.
struct OrderRecord: Codable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "purchase_order"

    var id: String
    var appID: String
    var orderCode: String
    var buyerID: String
    var filterID: String
    var totalPrice: Int
    var paidAt: Int64?
    var createdAt: Int64
    var updatedAt: Int64

    enum CodingKeys: String, CodingKey, ColumnExpression {
        case id
        case appID = "app_id"
        case orderCode = "order_code"
        case buyerID = "buyer_id"
        case filterID = "filter_id"
        case totalPrice = "total_price"
        case paidAt = "paid_at"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    typealias Columns = CodingKeys

    var answer: OrderAnswer {
        OrderAnswer(orderID: id, orderCode: orderCode, totalPrice: totalPrice,
                    createdAt: GlintDate.string(fromMilliseconds: createdAt), updatedAt: GlintDate.string(fromMilliseconds: updatedAt))
    }
}
