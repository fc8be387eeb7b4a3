/// payment-verify-svc → market-svc (through the outbox): a verified payment's grant. market-svc
/// applies both idempotently (an order is paid once; coins are granted once per `imp_uid`).
package struct PaymentGrantEvent: Codable, Sendable, Equatable {
    package enum Kind: String, Codable, Sendable {
        case order
        case coins
    }

    package var kind: Kind
    package var impUID: String
    package var appID: String
    package var userID: String
    /// The order code (orders) or the client's merchant uid (coins).
    package var merchantUID: String
    package var coins: Int

    package init(kind: Kind, impUID: String, appID: String, userID: String, merchantUID: String, coins: Int = 0) {
        self.kind = kind
        self.impUID = impUID
        self.appID = appID
        self.userID = userID
        self.merchantUID = merchantUID
        self.coins = coins
    }

    enum CodingKeys: String, CodingKey {
        case kind
        case impUID = "imp_uid"
        case appID = "app_id"
        case userID = "user_id"
        case merchantUID = "merchant_uid"
        case coins
    }

    package static let topic = "market.payment-grant"
    /// The same grant taken back: the payment was cancelled or refunded at the PG after it.
    package static let refundTopic = "market.payment-refund"
}

/// market-svc's answer to a coin refund: the wallet after it.
package struct CoinRefundAnswer: Codable, Sendable, Equatable {
    package var coins: Int
    /// What this refund took: the coins the payment bought, or what is left of them when some
    /// were spent (a wallet never goes below zero).
    package var debited: Int
    /// False when this `imp_uid` had already been refunded (or never granted).
    package var refunded: Bool

    package init(coins: Int, debited: Int, refunded: Bool) {
        self.coins = coins
        self.debited = debited
        self.refunded = refunded
    }
}

/// market-svc's answer to a coin grant: the wallet after it.
package struct CoinGrantAnswer: Codable, Sendable, Equatable {
    package var coins: Int
    /// False when this `imp_uid` had already been granted.
    package var granted: Bool

    package init(coins: Int, granted: Bool) {
        self.coins = coins
        self.granted = granted
    }
}

/// A wallet's balance (`sesacCoin` of the workspace apps' `/users/me`).
package struct CoinBalance: Codable, Sendable, Equatable {
    package var coins: Int

    package init(coins: Int) {
        self.coins = coins
    }
}

/// Coins a user spends on something (a workspace), once per `key`: the spender's service names
/// the purchase before it exists, so a retry never spends twice and a purchase it gives up on
/// can be given back (`returnSpend`).
package struct CoinSpend: Codable, Sendable, Equatable {
    package var key: String
    package var userID: String
    package var coins: Int

    package init(key: String, userID: String, coins: Int) {
        (self.key, self.userID, self.coins) = (key, userID, coins)
    }

    enum CodingKeys: String, CodingKey {
        case key, coins
        case userID = "user_id"
    }
}

/// A spend to give back, by its key.
package struct CoinSpendKey: Codable, Sendable, Equatable {
    package var key: String

    package init(key: String) {
        self.key = key
    }
}
