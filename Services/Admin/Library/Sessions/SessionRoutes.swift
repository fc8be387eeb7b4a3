import Contracts
import Hummingbird
import Logging
import ServiceKit

/// `POST /admin/api/session` signs in; `GET` shows the session (and its CSRF token, for a page
/// opened later); `DELETE` signs out; `DELETE /admin/api/sessions` signs out everywhere.
struct SessionRoutes: Sendable {
    let signIn: SignInService
    let gate: OperatorGate
    let audit: AuditLog

    func register(on group: ServiceApplication.Group) {
        group.post("/admin/api/session") { request, context -> Response in
            let address = try gate.address(of: request)
            let body = try await request.decode(as: OperatorSignIn.self, context: context)
            let opened: SignInService.Opened
            do {
                opened = try await signIn.signIn(body, address: address)
            } catch let error as ServiceError where error.code == .loginFailed {
                context.logger.notice("operator sign-in refused", metadata: ["email": "\(body.email.prefix(254))", "address": "\(address)"])
                throw error
            }
            let op = SignedInOperator(record: opened.record, session: opened.session, address: address, requestID: context.requestID)
            try await audit.record(op, "session.create")
            return JSONCoding.response(
                body: answer(opened.session, opened.record),
                headers: [.setCookie: OperatorGate.setCookie(opened.token, secure: OperatorGate.overTLS(request))])
        }
        group.get("/admin/api/session") { request, context -> Response in
            let op = try await gate.admit(request, context)
            return JSONCoding.response(body: answer(op.session, op.record))
        }
        group.delete("/admin/api/session") { request, context -> Response in
            let op = try await gate.admit(request, context)
            try await signIn.signOut(op.session)
            try await audit.record(op, "session.delete")
            return JSONCoding.response(
                body: EmptyAnswer(), headers: [.setCookie: OperatorGate.clearCookie(secure: OperatorGate.overTLS(request))])
        }
        group.delete("/admin/api/sessions") { request, context -> Response in
            let op = try await gate.admit(request, context)
            let ended = try await signIn.signOutEverywhere(op.record.id)
            try await audit.record(op, "session.delete_all", after: JSONText.encode(["sessions": ended]))
            return JSONCoding.response(
                body: EmptyAnswer(), headers: [.setCookie: OperatorGate.clearCookie(secure: OperatorGate.overTLS(request))])
        }
    }

    private func answer(_ session: SessionRecord, _ record: OperatorRecord) -> OperatorSessionAnswer {
        OperatorSessionAnswer(csrfToken: session.csrfToken, operator: record.answer, expiresAt: signIn.expiry(of: session))
    }
}
