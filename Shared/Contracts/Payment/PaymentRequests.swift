/// `POST /v1/payments/validation` (GLINT sends only `imp_uid`) and `POST /v1/store/pay/validation`.
public struct PaymentValidationRequest: Codable, Sendable, Equatable {
    public var impUID: String
    public var merchantUID: String?

    public init(impUID: String, merchantUID: String? = nil) {
        self.impUID = impUID
        self.merchantUID = merchantUID
    }

    enum CodingKeys: String, CodingKey {
        case impUID = "imp_uid"
        case merchantUID = "merchant_uid"
    }
}

/// PortOne's webhook body. Only `imp_uid` is used: the payment is fetched from PortOne again.
public struct PaymentWebhook: Codable, Sendable, Equatable {
    public var impUID: String
    public var merchantUID: String?
    public var status: String?

    public init(impUID: String, merchantUID: String? = nil, status: String? = nil) {
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
