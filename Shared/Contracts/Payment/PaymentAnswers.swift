/// `POST /v1/payments/validation` answer (API.md §5).
package struct PaymentValidationAnswer: Codable, Sendable, Equatable {
    package var paymentID: String
    package var orderItem: PaidOrderItem
    package var createdAt: String
    package var updatedAt: String

    package init(paymentID: String, orderItem: PaidOrderItem, createdAt: String, updatedAt: String) {
        self.paymentID = paymentID
        self.orderItem = orderItem
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    enum CodingKeys: String, CodingKey {
        case paymentID = "payment_id"
        case orderItem = "order_item"
        case createdAt, updatedAt
    }
}

/// The PG receipt of `GET /v1/payments/{id}` and `/me`: the first five keys always, the others
/// when PortOne gave them.
package struct PaymentReceipt: Codable, Sendable, Equatable {
    package var impUID: String
    package var merchantUID: String
    package var amount: Int
    package var currency: String
    package var status: String
    package var payMethod: String?
    package var pgProvider: String?
    package var cardName: String?
    package var name: String?
    package var buyerName: String?
    package var paidAt: String?
    package var receiptURL: String?

    package init(
        impUID: String, merchantUID: String, amount: Int, currency: String, status: String, payMethod: String? = nil, pgProvider: String? = nil,
        cardName: String? = nil, name: String? = nil, buyerName: String? = nil, paidAt: String? = nil, receiptURL: String? = nil
    ) {
        self.impUID = impUID
        self.merchantUID = merchantUID
        self.amount = amount
        self.currency = currency
        self.status = status
        self.payMethod = payMethod
        self.pgProvider = pgProvider
        self.cardName = cardName
        self.name = name
        self.buyerName = buyerName
        self.paidAt = paidAt
        self.receiptURL = receiptURL
    }

    enum CodingKeys: String, CodingKey {
        case impUID = "imp_uid"
        case merchantUID = "merchant_uid"
        case amount, currency, status
        case payMethod = "pay_method"
        case pgProvider = "pg_provider"
        case cardName = "card_name"
        case name
        case buyerName = "buyer_name"
        case paidAt
        case receiptURL = "receipt_url"
    }
}

/// `POST /v1/store/pay/validation` answer: a coin purchase (`sesacCoin` = coins bought now).
package struct CoinPurchaseAnswer: Codable, Sendable, Equatable {
    package var billingID: String
    package var merchantUID: String
    package var buyerID: String
    package var productName: String
    package var price: Int
    package var sesacCoin: Int
    package var paidAt: String

    package init(billingID: String, merchantUID: String, buyerID: String, productName: String, price: Int, sesacCoin: Int, paidAt: String) {
        self.billingID = billingID
        self.merchantUID = merchantUID
        self.buyerID = buyerID
        self.productName = productName
        self.price = price
        self.sesacCoin = sesacCoin
        self.paidAt = paidAt
    }

    enum CodingKeys: String, CodingKey {
        case billingID = "billing_id"
        case merchantUID = "merchant_uid"
        case buyerID = "buyer_id"
        case productName, price, sesacCoin, paidAt
    }
}

/// `GET /v1/store/item/list`: one coin product of the price list (API.md §8).
package struct StoreItem: Codable, Sendable, Equatable {
    package var itemID: String
    /// The price in won.
    package var amount: Int
    package var coin: Int

    package init(itemID: String, amount: Int, coin: Int) {
        (self.itemID, self.amount, self.coin) = (itemID, amount, coin)
    }

    enum CodingKeys: String, CodingKey {
        case itemID = "item_id"
        case amount, coin
    }
}
