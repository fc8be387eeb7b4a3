import Foundation
import ServiceKit
import Storage

/// payment-verify-svc's own environment variables.
package enum PaymentSettings {
    package static let apiURL = ConfigVariable("PORTONE_API_URL", default: "https://api.iamport.kr", "PortOne (iamport) v1 REST base URL")
    package static let impKey = ConfigVariable("PORTONE_IMP_KEY", default: "", "PortOne REST API key; empty = payments answer 503")
    package static let impSecret = ConfigVariable("PORTONE_IMP_SECRET", default: "", "PortOne REST API secret")
    package static let webhookSecret = ConfigVariable(
        "PAYMENT_WEBHOOK_SECRET", default: "",
        "shared secret PortOne's webhook URL carries as `?secret=` (or an `x-webhook-secret` header); webhooks are refused when neither it nor an allow-list is set"
    )
    package static let webhookAllowedIPs = ConfigVariable(
        "PAYMENT_WEBHOOK_ALLOWED_IPS", default: "", "comma-separated client addresses allowed to call the webhook (PortOne publishes its own)"
    )
    package static let coinProducts = ConfigVariable(
        "PAYMENT_COIN_PRODUCTS",
        default:
            #"[{"name":"10 Coin","price":100,"coins":10},{"name":"50 Coin","price":500,"coins":50},{"name":"100 Coin","price":1000,"coins":100}]"#,
        "JSON list of coin products [{name, price, coins}]: a coin payment of `price` won buys `coins` (the default is API.md §8's price list, `GET /v1/store/item/list`)"
    )

    package static let databaseURL = ConfigVariable.databaseURL("PAYMENT", service: "payment-verify-svc")

    package static var all: [ConfigVariable] { [apiURL, impKey, impSecret, webhookSecret, webhookAllowedIPs, coinProducts, databaseURL] }
}

/// Where PortOne is and how we sign in there.
struct PortOneSettings: Sendable {
    var baseURL: String
    var key: String
    var secret: String
}

/// A coin product: what a coin payment of `price` buys.
struct CoinProduct: Codable, Sendable, Equatable {
    var name: String
    var price: Int
    var coins: Int
}

struct PaymentConfiguration: Sendable {
    var portOne = PortOneSettings(baseURL: "https://api.iamport.kr", key: "", secret: "")
    var webhookSecret = ""
    var webhookAllowedIPs: Set<String> = []
    /// PostgreSQL instead of the SQLite file.
    var databaseURL: String?
    var coinProducts: [CoinProduct] = []

    init() {}

    init(reader: ConfigReader) throws {
        portOne = PortOneSettings(
            baseURL: try reader.url(PaymentSettings.apiURL), key: try reader.string(PaymentSettings.impKey),
            secret: try reader.string(PaymentSettings.impSecret))
        webhookSecret = try reader.string(PaymentSettings.webhookSecret)
        if !webhookSecret.isEmpty, webhookSecret.count < 16 {
            webhookSecret = try reader.refuse(PaymentSettings.webhookSecret, "must be at least 16 characters", standIn: "")
        }
        webhookAllowedIPs = Set(
            try reader.string(PaymentSettings.webhookAllowedIPs).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty
            })
        let text = try reader.string(PaymentSettings.coinProducts)
        if let products = try? JSONDecoder().decode([CoinProduct].self, from: Data(text.utf8)), products.count <= 50,
            products.allSatisfy({ $0.price > 0 && $0.coins > 0 && !$0.name.isEmpty }), Set(products.map(\.price)).count == products.count
        {
            coinProducts = products
        } else {
            coinProducts = try reader.refuse(
                PaymentSettings.coinProducts, "must be a JSON list of {name, price > 0, coins > 0} with distinct prices", standIn: [])
        }
        databaseURL = try reader.databaseURL(PaymentSettings.databaseURL)
        try reader.finish()
    }
}
