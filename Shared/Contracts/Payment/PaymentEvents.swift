/// payment-verify-svc → market-svc (through the outbox): a verified payment's grant. market-svc
/// applies both idempotently (an order is paid once; coins are granted once per `imp_uid`).
public struct PaymentGrantEvent: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable {
        case order
        case coins
    }

    public var kind: Kind
    public var impUID: String
    public var appID: String
    public var userID: String
    /// The order code (orders) or the client's merchant uid (coins).
    public var merchantUID: String
    public var coins: Int

    public init(kind: Kind, impUID: String, appID: String, userID: String, merchantUID: String, coins: Int = 0) {
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

    public static let topic = "market.payment-grant"
}

/// market-svc's answer to a coin grant: the wallet after it.
public struct CoinGrantAnswer: Codable, Sendable, Equatable {
    public var coins: Int
    /// False when this `imp_uid` had already been granted.
    public var granted: Bool

    public init(coins: Int, granted: Bool) {
        self.coins = coins
        self.granted = granted
    }
}
