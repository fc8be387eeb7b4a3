/// `POST /v1/payments/validation` (GLINT sends only `imp_uid`) and `POST /v1/store/pay/validation`.
package struct PaymentValidationRequest: Codable, Sendable, Equatable {
    package var impUID: String
    package var merchantUID: String?

    package init(impUID: String, merchantUID: String? = nil) {
        self.impUID = impUID
        self.merchantUID = merchantUID
    }

    enum CodingKeys: String, CodingKey {
        case impUID = "imp_uid"
        case merchantUID = "merchant_uid"
    }
}

/// PortOne's webhook body. Only `imp_uid` is used: the payment is fetched from PortOne again.
/// Kept in payment-verify-svc's own outbox until verified.
package struct PaymentWebhook: Codable, Sendable, Equatable {
    package static let topic = "payment.webhook"

    package var impUID: String
    package var merchantUID: String?
    package var status: String?

    package init(impUID: String, merchantUID: String? = nil, status: String? = nil) {
        self.impUID = impUID
        self.merchantUID = merchantUID
        self.status = status
    }

    enum CodingKeys: String, CodingKey {
        case impUID = "imp_uid"
        case merchantUID = "merchant_uid"
        case status
    }
}
