import Contracts

/// Verified payments, refused attempts, and the outbox of grants and webhooks.
protocol PaymentStore: Sendable {
    func payment(impUID: String) async throws -> PaymentRecord?
    /// The payment and its grant (outbox) in one transaction. A concurrent verification of the
    /// same payment finds the first one's record; an order paid by another payment is refused.
    func store(_ payment: PaymentRecord) async throws -> StoredPayment
    func recordRefusal(_ attempt: RefusedAttempt) async throws
    /// The user's payment whose imp_uid, order code or (paid order's) filter id is `id`, newest first.
    func payment(matching id: String, appID: String, userID: String) async throws -> PaymentRecord?
    /// The user's payments, newest first.
    func payments(appID: String, userID: String, limit: Int) async throws -> [PaymentRecord]
    /// The app's payments, newest first, each given criterion (user, order code, imp_uid) met.
    func search(appID: String, _ search: PaymentSearch) async throws -> [PaymentRecord]
    /// The app's (nil: every app's) payments verified and refunds recorded since `since`.
    func activity(appID: String?, since: Int64) async throws -> PaymentActivity
    /// A webhook's payment id, to be verified by the outbox relay.
    func queueWebhook(_ webhook: PaymentWebhook) async throws
    /// Records that the PG cancelled or refunded the payment (its receipt as the PG now gives it)
    /// and queues the grant's refund in the same transaction; nil when it was recorded already.
    func markRefunded(impUID: String, receipt: String, at time: Int64) async throws -> PaymentRecord?
}

enum StoredPayment {
    case stored(PaymentRecord)
    case existing(PaymentRecord)
    case orderTaken
}

/// A verification that was refused, kept for the record.
struct RefusedAttempt: Sendable {
    var source: String
    var impUID: String
    var merchantUID: String
    var appID: String
    var userID: String
    var reason: String
    var cancelled: Bool
    var createdAt: Int64
}
