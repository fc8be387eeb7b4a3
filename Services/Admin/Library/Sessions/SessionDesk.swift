import Contracts
import Hummingbird
import ServiceKit

/// Signing in and out and the operator's own password, shared by the admin API and the console:
/// each writes its audit line; a refused sign-in is logged (email and address, never the password).
struct SessionDesk: Sendable {
    let signIn: SignInService
    let gate: OperatorGate
    let audit: AuditLog

    func open(
        _ body: OperatorSignIn, _ request: Request, _ context: GlintRequestContext
    ) async throws -> (
        token: String, op: SignedInOperator
    ) {
        let address = try gate.address(of: request)
        let opened: SignInService.Opened
        do {
            opened = try await signIn.signIn(body, address: address)
        } catch let error as ServiceError where error.code == .loginFailed {
            context.logger.notice("operator sign-in refused", metadata: ["email": "\(body.email.prefix(254))", "address": "\(address)"])
            throw error
        }
        let op = SignedInOperator(record: opened.record, session: opened.session, address: address, requestID: context.requestID)
        try await audit.record(op, "session.create")
        return (opened.token, op)
    }

    func changePassword(_ change: OperatorPasswordChange, by op: SignedInOperator) async throws -> OperatorRecord {
        let changed = try await signIn.changePassword(change, session: op.session, record: op.record)
        try await audit.record(op, "session.password")
        return changed
    }

    func close(_ op: SignedInOperator) async throws {
        try await signIn.signOut(op.session)
        try await audit.record(op, "session.delete")
    }

    func closeEverywhere(_ op: SignedInOperator) async throws {
        let ended = try await signIn.signOutEverywhere(op.record.id)
        try await audit.record(op, "session.delete_all", after: JSONText.encode(["sessions": ended]))
    }

    func answer(_ session: SessionRecord, _ record: OperatorRecord) -> OperatorSessionAnswer {
        OperatorSessionAnswer(csrfToken: session.csrfToken, operator: record.answer, expiresAt: signIn.expiry(of: session))
    }
}
