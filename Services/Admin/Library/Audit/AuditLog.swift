import Contracts
import ServiceKit

/// Appends what an operator did: who, when, from where, what, to which target, before and after.
struct AuditLog: Sendable {
    let store: any AuditStore

    func record(
        _ op: SignedInOperator, _ action: String, app: String? = nil, kind: String? = nil, target: String? = nil, before: String? = nil,
        after: String? = nil
    ) async throws {
        try await store.append(
            AuditRecord(
                // Sequential: lines of one process written in the same millisecond keep their order.
                id: ObjectID.sequential(), at: GlintDate.nowMilliseconds(), operatorID: op.record.id, operatorEmail: op.record.email,
                address: op.address, action: action, appID: app, targetKind: kind, targetID: target, before: before, after: after,
                requestID: op.requestID))
    }

    func entries(_ query: AuditQuery) async throws -> [AuditEntryAnswer] {
        try await store.entries(query).map(\.answer)
    }
}
