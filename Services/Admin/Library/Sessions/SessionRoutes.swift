import Contracts
import Hummingbird
import ServiceKit

/// `POST /admin/api/session` signs in; `GET` shows the session (and its CSRF token, for a page
/// opened later); `POST …/session/password` changes the operator's own password; `DELETE` signs
/// out; `DELETE /admin/api/sessions` signs out everywhere.
struct SessionRoutes: Sendable {
    let gate: OperatorGate
    let desk: SessionDesk

    func register(on group: ServiceApplication.Group) {
        group.post("/admin/api/session") { request, context -> Response in
            let body = try await request.decode(as: OperatorSignIn.self, context: context)
            let (token, op) = try await desk.open(body, request, context)
            return JSONCoding.response(
                body: desk.answer(op.session, op.record),
                headers: [.setCookie: OperatorGate.setCookie(token, secure: OperatorGate.overTLS(request))])
        }
        group.get("/admin/api/session") { request, context -> Response in
            let op = try await gate.admit(request, context)
            return JSONCoding.response(body: desk.answer(op.session, op.record))
        }
        group.post("/admin/api/session/password") { request, context -> Response in
            let op = try await gate.admit(request, context)
            let changed = try await desk.changePassword(try await request.decode(as: OperatorPasswordChange.self, context: context), by: op)
            return JSONCoding.response(body: desk.answer(op.session, changed))
        }
        group.delete("/admin/api/session") { request, context -> Response in
            try await desk.close(try await gate.admit(request, context))
            return JSONCoding.response(
                body: EmptyAnswer(), headers: [.setCookie: OperatorGate.clearCookie(secure: OperatorGate.overTLS(request))])
        }
        group.delete("/admin/api/sessions") { request, context -> Response in
            try await desk.closeEverywhere(try await gate.admit(request, context))
            return JSONCoding.response(
                body: EmptyAnswer(), headers: [.setCookie: OperatorGate.clearCookie(secure: OperatorGate.overTLS(request))])
        }
    }
}
