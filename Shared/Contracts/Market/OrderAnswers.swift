package struct OrderRequest: Codable, Sendable {
    package var filterID: String
    package var totalPrice: Int

    package init(filterID: String, totalPrice: Int) {
        self.filterID = filterID
        self.totalPrice = totalPrice
    }

    enum CodingKeys: String, CodingKey {
        case filterID = "filter_id"
        case totalPrice = "total_price"
    }
}

/// `POST /v1/orders` answer.
package struct OrderAnswer: Codable, Sendable, Equatable {
    package var orderID: String
    package var orderCode: String
    package var totalPrice: Int
    package var createdAt: String
    package var updatedAt: String

    package init(orderID: String, orderCode: String, totalPrice: Int, createdAt: String, updatedAt: String) {
        self.orderID = orderID
        self.orderCode = orderCode
        self.totalPrice = totalPrice
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    enum CodingKeys: String, CodingKey {
        case orderID = "order_id"
        case orderCode = "order_code"
        case totalPrice = "total_price"
        case createdAt, updatedAt
    }
}

/// A paid order as `GET /v1/orders` lists it (and as payment validation answers it).
package struct PaidOrderItem: Codable, Sendable, Equatable {
    package struct Filter: Codable, Sendable, Equatable {
        package var id: String
        package var category: String
        package var title: String
        package var description: String
        package var files: [String]
        package var price: Int
        package var creator: UserInfoFull
        package var filterValues: FilterValues
        package var createdAt: String
        package var updatedAt: String

        package init(
            id: String, category: String, title: String, description: String, files: [String], price: Int,
            creator: UserInfoFull, filterValues: FilterValues, createdAt: String, updatedAt: String
        ) {
            self.id = id
            self.category = category
            self.title = title
            self.description = description
            self.files = files
            self.price = price
            self.creator = creator
            self.filterValues = filterValues
            self.createdAt = createdAt
            self.updatedAt = updatedAt
        }

        enum CodingKeys: String, CodingKey {
            case id, category, title, description, files, price, creator, createdAt, updatedAt
            case filterValues = "filter_values"
        }
    }

    package var orderID: String
    package var orderCode: String
    package var paidAt: String
    package var createdAt: String
    package var updatedAt: String
    package var filter: Filter

    package init(orderID: String, orderCode: String, paidAt: String, createdAt: String, updatedAt: String, filter: Filter) {
        self.orderID = orderID
        self.orderCode = orderCode
        self.paidAt = paidAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.filter = filter
    }

    enum CodingKeys: String, CodingKey {
        case orderID = "order_id"
        case orderCode = "order_code"
        case paidAt, createdAt, updatedAt, filter
    }
}

/// What payment-verify-svc learns of an order (internal).
package struct OrderRecordAnswer: Codable, Sendable, Equatable {
    package var orderID: String
    package var appID: String
    package var orderCode: String
    package var buyerID: String
    package var filterID: String
    package var totalPrice: Int
    package var paid: Bool

    package init(orderID: String, appID: String, orderCode: String, buyerID: String, filterID: String, totalPrice: Int, paid: Bool) {
        self.orderID = orderID
        self.appID = appID
        self.orderCode = orderCode
        self.buyerID = buyerID
        self.filterID = filterID
        self.totalPrice = totalPrice
        self.paid = paid
    }

    enum CodingKeys: String, CodingKey {
        case orderID = "order_id"
        case appID = "app_id"
        case orderCode = "order_code"
        case buyerID = "buyer_id"
        case filterID = "filter_id"
        case totalPrice = "total_price"
        case paid
    }
}
