import Contracts
import HTTPTypes
import Hummingbird
import ServiceKit

/// API.md §5.
struct PaymentRoutes: Sendable {
    let verifier: VerificationService
    /// admin-svc's search and refunds.
    let operators: OperatorPayments
    let configuration: PaymentConfiguration
    /// Wakes the outbox relay after a transaction that queued a grant or a webhook.
    let queued: @Sendable () -> Void

    func register(internal group: ServiceApplication.Group, protected: ServiceApplication.Group) {
        group.serve(InternalEndpoints.PaymentVerify.userPayments) { userID, _, context in
            DataList(data: try await verifier.payments(of: userID, appID: try context.requireAppID()).map(PaymentRenderer.receipt))
        }
        group.serve(InternalEndpoints.Activity.payments) { _, _, context in
            // Today (UTC): the overview's payments and refunds.
            try await operators.store.activity(appID: context.appID, since: ActivityQuery.day(GlintDate.nowMilliseconds()) * 86_400_000)
        }
        group.serve(InternalEndpoints.PaymentVerify.searchPayments) { _, search, context in
            try await operators.search(search, appID: try context.requireAppID())
        }
        group.serve(InternalEndpoints.PaymentVerify.refundPayment) { impUID, request, context in
            // The refund's grant reversal was queued in the same transaction: relay it now.
            defer { queued() }
            return try await operators.refund(impUID, request, appID: try context.requireAppID())
        }
        protected.post("/v1/payments/validation") { request, context -> PaymentValidationAnswer in
            let body = try await request.decode(as: PaymentValidationRequest.self, context: context)
            // Also when the answer fails: the payment and its grant may be stored by then.
            defer { queued() }
            let (record, item) = try await verifier.validateOrder(body, caller: try context.requireUser(), requestID: context.requestID)
            return PaymentRenderer.validation(record, item: item)
        }
        protected.post("/v1/store/pay/validation") { request, context -> CoinPurchaseAnswer in
            // Workspace apps are told a repeated validation is invalid (API.md §8); the others get
            // the purchase again.
            let record = try await verifier.validateCoins(
                try await request.decode(as: PaymentValidationRequest.self, context: context),
                caller: try context.requireUser(), repeatRefused: context.appProfile == .slp)
            queued()
            return PaymentRenderer.coinPurchase(record)
        }
        protected.get("/v1/store/item/list") { _, _ -> Response in
            JSONCoding.response(body: PaymentRenderer.storeItems(configuration.coinProducts))
        }
        protected.get("/v1/payments/me") { _, context -> DataList<PaymentReceipt> in
            DataList(data: try await verifier.payments(caller: try context.requireUser()).map(PaymentRenderer.receipt))
        }
        protected.get("/v1/payments/{id}") { _, context -> PaymentReceipt in
            try PaymentRenderer.receipt(try await verifier.payment(try context.parameters.require("id"), caller: try context.requireUser()))
        }
        // No app key and no token: PortOne calls it. Guarded by a shared secret or an address
        // allow-list, and answered as soon as the event is stored.
        group.post("/v1/payments/webhook") { request, context -> EmptyAnswer in
            try authorizeWebhook(request)
            try await verifier.queueWebhook(try await request.decode(as: PaymentWebhook.self, context: context))
            queued()
            return EmptyAnswer()
        }
    }

    private func authorizeWebhook(_ request: Request) throws {
        let secret = configuration.webhookSecret
        if !secret.isEmpty {
            let offered = request.uri.queryParameters["secret"].map(String.init) ?? request.headers[webhookSecretHeader] ?? ""
            if ConstantTime.equals(offered.utf8, secret.utf8) { return }
        }
        if !configuration.webhookAllowedIPs.isEmpty, let address = request.headers[clientIPHeader], configuration.webhookAllowedIPs.contains(address)
        {
            return
        }
        throw ServiceError(
            .forbidden, secret.isEmpty && configuration.webhookAllowedIPs.isEmpty ? "webhook not configured" : "webhook not authorized")
    }

    private let webhookSecretHeader = HTTPField.Name("x-webhook-secret")!
    private let clientIPHeader = HTTPField.Name(InternalHeader.clientIP)!
}
