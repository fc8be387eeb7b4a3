import Contracts

/// A filter purchase as stored.
struct OrderRecord: Codable, Equatable, Sendable {
    var id, appID, orderCode, buyerID, filterID: String
    var totalPrice: Int
    var paidAt: Int64?
    var createdAt, updatedAt: Int64

    enum CodingKeys: String, CodingKey {
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

    var answer: OrderAnswer {
        OrderAnswer(
            orderID: id, orderCode: orderCode, totalPrice: totalPrice,
            createdAt: GlintDate.string(fromMilliseconds: createdAt), updatedAt: GlintDate.string(fromMilliseconds: updatedAt))
    }
}
