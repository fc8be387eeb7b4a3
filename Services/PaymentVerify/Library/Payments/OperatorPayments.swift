import Contracts
import Logging
import ServiceKit

/// Payments as operators see them (admin-svc): an app's payments found by user, order or imp_uid,
/// and a refund — cancelled at PortOne first, then recorded by the path a PortOne-reported
/// cancellation takes (`processWebhook`: the payment marked refunded and the grant's refund queued
/// in one transaction), so a refund from the console and one from PortOne's own console end alike.
struct OperatorPayments: Sendable {
    let store: any PaymentStore
    let portOne: PortOneClient
    let verifier: VerificationService
    let logger: Logger

    func search(_ search: PaymentSearch, appID: String) async throws -> [OperatorPayment] {
        var search = search
        for criterion in [search.userId, search.merchantUid, search.impUid] {
            guard (criterion?.utf8.count ?? 0) <= 100 else { throw ServiceError.badRequest("a search term is at most 100 characters") }
        }
        (search.userId, search.merchantUid, search.impUid) = (
            search.userId.flatMap(Self.term), search.merchantUid.flatMap(Self.term), search.impUid.flatMap(Self.term)
        )
        guard (1...200).contains(search.limit) else { throw ServiceError.badRequest("limit must be 1 to 200") }
        return try await store.search(appID: appID, search).map(Self.shown)
    }

    func refund(_ impUID: String, _ request: PaymentRefundRequest, appID: String) async throws -> OperatorPayment {
        guard VerificationService.validImpUID(impUID), let payment = try await store.payment(impUID: impUID), payment.appID == appID else {
            throw ServiceError.notFound("no such payment in this app")
        }
        guard payment.refundedAt == nil else { throw ServiceError(.conflict, "this payment is refunded already") }
        let reason = request.reason.trimmingCharacters(in: .whitespaces)
        guard (1...200).contains(reason.count) else { throw ServiceError.badRequest("a reason of 1 to 200 characters is required") }
        do {
            try await portOne.cancel(impUID, reason)
        } catch let error as ServiceError where error.code != .unavailable {
            // PortOne refused (already cancelled there, say): its word is taken below.
            logger.notice("PortOne refused the cancellation", metadata: ["imp_uid": "\(impUID)", "error": "\(error.message)"])
        }
        try await verifier.processWebhook(impUID)
        guard let refunded = try await store.payment(impUID: impUID), refunded.refundedAt != nil else {
            throw ServiceError(.conflict, "PortOne did not cancel the payment")
        }
        logger.notice("payment refunded by an operator", metadata: ["imp_uid": "\(impUID)", "merchant_uid": "\(payment.merchantUID)"])
        return Self.shown(refunded)
    }

    private static func term(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }

    static func shown(_ record: PaymentRecord) -> OperatorPayment {
        let receipt: PaymentReceipt? = JSONText.decode(record.receipt)
        return OperatorPayment(
            impUid: record.impUID, merchantUid: record.merchantUID, kind: record.kind.rawValue, userId: record.userID, amount: record.amount,
            coins: record.coins, productName: record.productName, status: receipt?.status ?? "paid",
            paidAt: GlintDate.string(fromMilliseconds: record.paidAt), refundedAt: record.refundedAt.map(GlintDate.string(fromMilliseconds:)))
    }
}
