import Contracts
import Logging
import ServiceClients
import ServiceKit

/// PortOne double verification (API.md §5): the payment is always fetched from the PG, matched
/// with our order, and recorded together with its grant (outbox) in one transaction, so every
/// path — validation, webhook, retries — grants at most once and a crash never loses a grant.
struct VerificationService: Sendable {
    let store: any PaymentStore
    let portOne: PortOneClient
    let market: MarketClient
    let products: [CoinProduct]
    let logger: Logger

    enum Source: String {
        case validation, webhook, coins
    }

    /// What is known when a verification starts.
    struct Claim {
        var impUID: String
        var merchantUID: String?
        var caller: AuthenticatedUser?
        var source: Source
    }

    static func validImpUID(_ text: String) -> Bool {
        (1...100).contains(text.utf8.count)
            && text.utf8.allSatisfy { $0 == 95 || $0 == 45 || (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) }
    }

    /// A filter order, by its buyer: verified (or already verified), then paid at market-svc.
    func validateOrder(
        _ request: PaymentValidationRequest, caller: AuthenticatedUser, requestID: String
    ) async throws -> (PaymentRecord, PaidOrderItem) {
        let record = try await verifyOrder(
            Claim(impUID: request.impUID, merchantUID: request.merchantUID, caller: caller, source: .validation), requestID: requestID)
        do {
            // The outbox grants it too; asking now gives the answer its order item.
            return (record, try await market.markPaid(record.merchantUID, record.appID, requestID))
        } catch let error as ServiceError where error.code == .unavailable {
            throw ServiceError(.unavailable, "payment verified; the purchase is being granted, ask again shortly")
        }
    }

    /// A webhook, from the outbox: the PG says something happened to `impUID`. A new payment is
    /// verified (refusals are recorded and end here); a granted one that the PG now reports
    /// cancelled is recorded refunded and its grant taken back. An unreachable PG or market-svc
    /// throws, and the outbox retries.
    func processWebhook(_ impUID: String) async throws {
        if let existing = try await store.payment(impUID: impUID) {
            guard existing.refundedAt == nil, let payment = try await portOne.payment(impUID), payment.status == "cancelled" else { return }
            if try await store.markRefunded(impUID: impUID, receipt: JSONText.encode(payment.receipt), at: GlintDate.nowMilliseconds()) != nil {
                logger.notice(
                    "payment cancelled at the PG after its grant; taking the grant back",
                    metadata: [
                        "imp_uid": "\(impUID)", "merchant_uid": "\(existing.merchantUID)", "kind": "\(existing.kind.rawValue)",
                    ])
            }
            return
        }
        do {
            _ = try await verifyOrder(Claim(impUID: impUID, merchantUID: nil, caller: nil, source: .webhook), requestID: nil)
        } catch let error as ServiceError where error.code == .paymentInvalid || error.code == .notPermitted {
            logger.notice("webhook payment not granted", metadata: ["imp_uid": "\(impUID)", "reason": "\(error.message)"])
        }
    }

    private func verifyOrder(_ claim: Claim, requestID: String?) async throws -> PaymentRecord {
        guard Self.validImpUID(claim.impUID) else { throw ServiceError.badRequest("imp_uid required") }
        if let existing = try await store.payment(impUID: claim.impUID) { return try owned(existing, by: claim.caller, kind: .order) }
        guard let payment = try await portOne.payment(claim.impUID) else {
            throw try await refuse(
                claim, merchantUID: claim.merchantUID ?? "", appID: claim.caller?.appID ?? "", reason: "unknown payment", cancel: false)
        }
        let paid = payment.status == "paid"
        if let claimed = claim.merchantUID, !claimed.isEmpty, claimed != payment.merchantUID {
            throw try await refuse(
                claim, merchantUID: claimed, appID: claim.caller?.appID ?? "", reason: "merchant_uid does not match the payment", cancel: false)
        }
        // Order codes are `ord_` + an id (market-svc); anything else cannot be an order.
        guard payment.merchantUID.hasPrefix("ord_"), ObjectID.isValid(payment.merchantUID.dropFirst(4)),
            let order = try await market.order(payment.merchantUID, claim.caller?.appID, requestID)
        else {
            // A webhook also reports coin payments, which have no order: those are the buyer's to validate.
            throw try await refuse(
                claim, merchantUID: payment.merchantUID, appID: claim.caller?.appID ?? "", reason: "unknown order",
                cancel: paid && claim.source == .validation)
        }
        // Someone else's order is refused but not cancelled: a stranger replaying a genuine
        // imp_uid must not be able to cancel its buyer's payment.
        if let caller = claim.caller, order.buyerID != caller.userID {
            throw try await refuse(
                claim, merchantUID: order.orderCode, appID: order.appID, reason: "not the caller's order", cancel: false, status: .notPermitted)
        }
        guard paid else {
            throw try await refuse(
                claim, merchantUID: order.orderCode, appID: order.appID, reason: "payment status is \(payment.status)", cancel: false)
        }
        guard payment.wholeAmount == order.totalPrice else {
            throw try await refuse(
                claim, merchantUID: order.orderCode, appID: order.appID,
                reason: "amount \(payment.amount) does not match the order's \(order.totalPrice)", cancel: true)
        }
        let now = GlintDate.nowMilliseconds()
        let record = PaymentRecord(
            id: ObjectID.generate(), impUID: payment.impUID, kind: .order, appID: order.appID, userID: order.buyerID, merchantUID: order.orderCode,
            filterID: order.filterID, amount: order.totalPrice, coins: 0, productName: payment.name ?? "", receipt: JSONText.encode(payment.receipt),
            paidAt: (payment.paidAt ?? 0) * 1000, createdAt: now, updatedAt: now
        )
        switch try await store.store(record) {
        case .stored(let stored), .existing(let stored):
            return try owned(stored, by: claim.caller, kind: .order)
        case .orderTaken:
            throw try await refuse(
                claim, merchantUID: order.orderCode, appID: order.appID, reason: "order already paid by another payment", cancel: true)
        }
    }

    /// A coin purchase: `sesacCoin` is what this payment bought, by the configured products.
    /// With `repeatRefused`, a payment validated before is refused (`paymentInvalid`), not answered again.
    func validateCoins(_ request: PaymentValidationRequest, caller: AuthenticatedUser, repeatRefused: Bool = false) async throws -> PaymentRecord {
        guard Self.validImpUID(request.impUID) else { throw ServiceError.badRequest("imp_uid required") }
        guard let merchantUID = request.merchantUID, (1...100).contains(merchantUID.count) else {
            throw ServiceError.badRequest("merchant_uid required")
        }
        let claim = Claim(impUID: request.impUID, merchantUID: merchantUID, caller: caller, source: .coins)
        if let existing = try await store.payment(impUID: request.impUID) {
            let record = try repeated(existing, by: caller, refused: repeatRefused)
            await grantAhead(record)
            return record
        }
        guard let payment = try await portOne.payment(request.impUID) else {
            throw try await refuse(claim, merchantUID: merchantUID, appID: caller.appID, reason: "unknown payment", cancel: false)
        }
        guard payment.merchantUID == merchantUID else {
            throw try await refuse(
                claim, merchantUID: merchantUID, appID: caller.appID, reason: "merchant_uid does not match the payment", cancel: false)
        }
        guard payment.status == "paid" else {
            throw try await refuse(claim, merchantUID: merchantUID, appID: caller.appID, reason: "payment status is \(payment.status)", cancel: false)
        }
        guard let product = products.first(where: { $0.price == payment.wholeAmount }) else {
            throw try await refuse(
                claim, merchantUID: merchantUID, appID: caller.appID, reason: "no coin product costs \(payment.amount)", cancel: true)
        }
        let now = GlintDate.nowMilliseconds()
        let record = PaymentRecord(
            id: ObjectID.generate(), impUID: payment.impUID, kind: .coins, appID: caller.appID, userID: caller.userID, merchantUID: merchantUID,
            filterID: "",
            amount: product.price, coins: product.coins, productName: product.name, receipt: JSONText.encode(payment.receipt),
            paidAt: (payment.paidAt ?? 0) * 1000, createdAt: now, updatedAt: now
        )
        let stored: PaymentRecord
        switch try await store.store(record) {
        case .stored(let record): stored = try owned(record, by: caller, kind: .coins)
        case .existing(let record): stored = try repeated(record, by: caller, refused: repeatRefused)
        case .orderTaken: throw ServiceError(.internalError, "coin payment stored as an order")
        }
        await grantAhead(stored)
        return stored
    }

    /// The coins credited before the answer: the app reads the balance as soon as the purchase
    /// screen closes. The outbox holds the same grant (stored with the payment) and makes it
    /// again — market-svc grants once per `imp_uid` — or finishes it when this fails.
    private func grantAhead(_ record: PaymentRecord) async {
        do {
            _ = try await market.grantCoins(record.grant)
        } catch {
            logger.warning(
                "coin grant ahead of the outbox failed; the outbox will make it",
                metadata: [
                    "imp_uid": "\(record.impUID)", "error": "\(error)",
                ])
        }
    }

    /// The caller's payment by order code, imp_uid or the filter id of a paid order.
    func payment(_ id: String, caller: AuthenticatedUser) async throws -> PaymentRecord {
        guard (1...100).contains(id.count) else { throw ServiceError.badRequest("invalid payment id") }
        guard let record = try await store.payment(matching: id, appID: caller.appID, userID: caller.userID) else {
            throw ServiceError.notFound("no such payment")
        }
        return record
    }

    /// The caller's payments, newest first (the latest 200).
    func payments(caller: AuthenticatedUser) async throws -> [PaymentRecord] {
        try await payments(of: caller.userID, appID: caller.appID)
    }

    /// A user's payments, newest first (the latest 200): theirs, or an operator's look (admin-svc).
    func payments(of userID: String, appID: String) async throws -> [PaymentRecord] {
        guard ObjectID.isValid(userID) else { throw ServiceError(.userNotFound, "invalid user id") }
        return try await store.payments(appID: appID, userID: userID, limit: 200)
    }

    /// A webhook, answered at once: verified by the outbox relay (`processWebhook`).
    func queueWebhook(_ webhook: PaymentWebhook) async throws {
        guard Self.validImpUID(webhook.impUID) else { throw ServiceError.badRequest("imp_uid required") }
        try await store.queueWebhook(webhook)
    }

    /// A coin payment validated before: answered again, or refused when `refused`.
    private func repeated(_ record: PaymentRecord, by caller: AuthenticatedUser, refused: Bool) throws -> PaymentRecord {
        let record = try owned(record, by: caller, kind: .coins)
        if refused { throw ServiceError(.paymentInvalid, "this payment was validated before") }
        return record
    }

    private func owned(_ record: PaymentRecord, by caller: AuthenticatedUser?, kind: PaymentRecord.Kind) throws -> PaymentRecord {
        guard record.kind == kind else { throw ServiceError(.paymentInvalid, "this payment was for \(record.kind == .order ? "an order" : "coins")") }
        if let caller, caller.userID != record.userID || caller.appID != record.appID { throw ServiceError(.notPermitted, "not your payment") }
        return record
    }

    /// Records a refused verification, cancels the payment at the PG when asked (best effort:
    /// a failed cancel is logged and recorded), and answers the error to throw.
    private func refuse(
        _ claim: Claim, merchantUID: String, appID: String, reason: String, cancel: Bool, status: ErrorCode = .paymentInvalid
    ) async throws -> ServiceError {
        var cancelled = false
        if cancel {
            do {
                try await portOne.cancel(claim.impUID, "verification failed: \(reason)")
                cancelled = true
            } catch {
                logger.error("payment could not be cancelled", metadata: ["imp_uid": "\(claim.impUID)", "error": "\(error)"])
            }
        }
        logger.warning(
            "payment refused",
            metadata: [
                "imp_uid": "\(claim.impUID)", "merchant_uid": "\(merchantUID)", "source": "\(claim.source.rawValue)", "reason": "\(reason)",
                "cancelled": "\(cancelled)",
            ])
        try await store.recordRefusal(
            RefusedAttempt(
                source: claim.source.rawValue, impUID: claim.impUID, merchantUID: merchantUID, appID: appID, userID: claim.caller?.userID ?? "",
                reason: reason, cancelled: cancelled, createdAt: GlintDate.nowMilliseconds()
            ))
        return ServiceError(status, cancelled ? "\(reason); the payment was cancelled" : reason)
    }
}
