public struct OrderRequest: Codable, Sendable {
    public var filterID: String
    public var totalPrice: Int

    public init(filterID: String, totalPrice: Int) {
        self.filterID = filterID
        self.totalPrice = totalPrice
    }

    enum CodingKeys: String, CodingKey {
        case filterID = "filter_id"
        case totalPrice = "total_price"
    }
}

/// `POST /v1/orders` answer.
public struct OrderAnswer: Codable, Sendable, Equatable {
    public var orderID: String
    public var orderCode: String
    public var totalPrice: Int
    public var createdAt: String
    public var updatedAt: String

    public init(orderID: String, orderCode: String, totalPrice: Int, createdAt: String, updatedAt: String) {
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
public struct PaidOrderItem: Codable, Sendable, Equatable {
    public struct Filter: Codable, Sendable, Equatable {
        public var id: String
        public var category: String
        public var title: String
        public var description: String
        public var files: [String]
        public var price: Int
        public var creator: UserInfoFull
        public var filterValues: FilterValues
        public var createdAt: String
        public var updatedAt: String

        public init(id: String, category: String, title: String, description: String, files: [String], price: Int,
                    creator: UserInfoFull, filterValues: FilterValues, createdAt: String, updatedAt: String) {
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

    public var orderID: String
    public var orderCode: String
    public var paidAt: String
    public var createdAt: String
    public var updatedAt: String
    public var filter: Filter

    public init(orderID: String, orderCode: String, paidAt: String, createdAt: String, updatedAt: String, filter: Filter) {
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
public struct OrderRecordAnswer: Codable, Sendable, Equatable {
    public var orderID: String
    public var appID: String
    public var orderCode: String
    public var buyerID: String
    public var filterID: String
    public var totalPrice: Int
    public var paid: Bool

    public init(orderID: String, appID: String, orderCode: String, buyerID: String, filterID: String, totalPrice: Int, paid: Bool) {
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
