import Contracts

/// A payment as PortOne (iamport) v1 describes it: `GET /payments/{imp_uid}`'s `response`.
struct PortOnePayment: Codable, Sendable, Equatable {
    var impUID: String
    var merchantUID: String
    var amount: Double
    var currency: String?
    /// `ready`, `paid`, `cancelled` or `failed`.
    var status: String
    var payMethod: String?
    var pgProvider: String?
    var cardName: String?
    var name: String?
    var buyerName: String?
    /// Unix seconds; 0 while unpaid.
    var paidAt: Int64?
    var receiptURL: String?

    enum CodingKeys: String, CodingKey {
        case impUID = "imp_uid"
        case merchantUID = "merchant_uid"
        case amount, currency, status, name
        case payMethod = "pay_method"
        case pgProvider = "pg_provider"
        case cardName = "card_name"
        case buyerName = "buyer_name"
        case paidAt = "paid_at"
        case receiptURL = "receipt_url"
    }

    /// Whole won; PortOne sends amounts as JSON numbers.
    var wholeAmount: Int? { amount.isFinite && amount == amount.rounded() && abs(amount) < 1e12 ? Int(amount) : nil }

    var receipt: PaymentReceipt {
        PaymentReceipt(
            impUID: impUID, merchantUID: merchantUID, amount: wholeAmount ?? 0, currency: currency ?? "KRW", status: status, payMethod: payMethod,
            pgProvider: pgProvider, cardName: cardName, name: name, buyerName: buyerName,
            paidAt: paidAt.flatMap { $0 > 0 ? GlintDate.string(fromMilliseconds: $0 * 1000) : nil }, receiptURL: receiptURL
        )
    }
}
