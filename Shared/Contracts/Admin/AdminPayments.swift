/// Payments as operators see and refund them (issue 36).

/// A payment as operators see it: what it paid for, whose, PortOne's receipt status, and when it
/// was refunded (the grant taken back).
package struct OperatorPayment: Codable, Sendable, Equatable {
    package var impUid: String
    package var merchantUid: String
    /// `order` (a filter) or `coins`.
    package var kind: String
    package var userId: String
    package var amount: Int
    package var coins: Int
    package var productName: String
    /// PortOne's status as last seen (`paid`, `cancelled`).
    package var status: String
    package var paidAt: String
    package var refundedAt: String?

    package init(
        impUid: String, merchantUid: String, kind: String, userId: String, amount: Int, coins: Int, productName: String, status: String,
        paidAt: String, refundedAt: String?
    ) {
        (self.impUid, self.merchantUid, self.kind, self.userId) = (impUid, merchantUid, kind, userId)
        (self.amount, self.coins, self.productName, self.status, self.paidAt, self.refundedAt) = (
            amount, coins, productName, status, paidAt, refundedAt
        )
    }
}

/// admin-svc → payment-verify-svc: an app's payments, newest first, narrowed by user, order code
/// or imp_uid (none: the latest).
package struct PaymentSearch: Codable, Sendable, Equatable {
    package var userId: String?
    package var merchantUid: String?
    package var impUid: String?
    package var limit: Int

    package init(userId: String? = nil, merchantUid: String? = nil, impUid: String? = nil, limit: Int = 50) {
        (self.userId, self.merchantUid, self.impUid, self.limit) = (userId, merchantUid, impUid, limit)
    }
}

/// `POST /admin/api/apps/{app_id}/payments/{imp_uid}/refund`: cancels the payment at PortOne;
/// the grant is taken back as when PortOne reports a cancellation.
package struct PaymentRefundRequest: Codable, Sendable, Equatable {
    package var reason: String

    package init(reason: String) {
        self.reason = reason
    }
}
