import Contracts
import Hummingbird
import ServiceClients
import ServiceKit

/// An app's payments for owners and admins, shared by the admin API and the console: receipts
/// found by user, order or imp_uid, and a refund that cancels at PortOne and takes the grant back.
struct PaymentDesk: Sendable {
    let payments: PaymentClient
    let audit: AuditLog

    /// `?user=&order=&imp_uid=&limit=`.
    static func search(_ query: Parameters) throws -> PaymentSearch {
        func text(_ name: String) -> String? { query[name[...]].map(String.init).flatMap { $0.isEmpty ? nil : $0 } }
        var search = PaymentSearch(userId: text("user"), merchantUid: text("order"), impUid: text("imp_uid"))
        if let limit = text("limit") {
            guard let value = Int(limit), (1...200).contains(value) else { throw ServiceError.badRequest("limit must be 1 to 200") }
            search.limit = value
        }
        return search
    }

    func search(_ search: PaymentSearch, app: AppInfo, by op: SignedInOperator) async throws -> [OperatorPayment] {
        try Self.requireManager(op)
        return try await payments.search(search, app.appID, op.requestID)
    }

    func refund(_ impUID: String, reason: String, app: AppInfo, by op: SignedInOperator) async throws -> OperatorPayment {
        try Self.requireManager(op)
        let before = try await payments.search(PaymentSearch(impUid: impUID, limit: 1), app.appID, op.requestID).first
        guard let before else { throw ServiceError.notFound("no such payment in this app") }
        let after = try await payments.refund(impUID, PaymentRefundRequest(reason: reason), app.appID, op.requestID)
        try await audit.record(
            op, "payment.refund", app: app.appID, kind: "payment", target: impUID, before: JSONText.encode(before), after: JSONText.encode(after))
        return after
    }

    static func requireManager(_ op: SignedInOperator) throws {
        guard op.record.role != .moderator else { throw ServiceError(.forbidden, "payments are for owners and admins") }
    }
}
