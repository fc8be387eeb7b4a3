import Contracts
import Hummingbird
import ServiceKit

/// Sign-in (email, password, TOTP code), the first sign-in's password change, sign-out.
struct SessionPages: Sendable {
    let console: Console
    let desk: SessionDesk

    struct SignInView {
        var email = ""
        var failed = false
    }

    struct PasswordView {
        var required: Bool
    }

    func register(on group: ServiceApplication.Group) {
        group.get("/admin/console.css") { _, _ in console.renderer.stylesheetResponse }
        group.get("/admin/console.js") { _, _ in console.renderer.scriptResponse }
        group.get("/admin/sign-in") { _, _ -> Response in
            console.render(Console.Page(template: "sign-in", title: "Sign in", content: SignInView()), nil)
        }
        group.post("/admin/sign-in") { request, context -> Response in
            let form: [String: String]
            do { form = try await Console.form(request) } catch { return console.failure(error, nil, context) }
            let body = OperatorSignIn(email: form["email"] ?? "", password: form["password"] ?? "", code: form["code"] ?? "")
            do {
                let (token, op) = try await desk.open(body, request, context)
                return ConsoleRenderer.redirect(
                    op.record.passwordChangedAt == nil ? "/admin/password" : "/admin",
                    headers: [.setCookie: OperatorGate.setCookie(token, secure: OperatorGate.overTLS(request))])
            } catch let error as ServiceError where error.code == .loginFailed {
                let view = SignInView(email: String(body.email.prefix(254)), failed: true)
                return console.render(Console.Page(template: "sign-in", title: "Sign in", content: view, status: .unauthorized), nil)
            } catch {
                return console.failure(error, nil, context)
            }
        }
        console.page(group, "/admin/password", passwordPage: true) { _, _, visit in
            Console.Page(
                template: "password", title: "Change your password", content: PasswordView(required: visit.op.record.passwordChangedAt == nil))
        }
        console.action(group, "/admin/password", passwordPage: true) { _, _, visit in
            guard visit.form["new_password"] == visit.form["repeat_password"] else {
                throw ServiceError.badRequest("the new password and its repetition differ")
            }
            let change = OperatorPasswordChange(currentPassword: visit.form["current_password"] ?? "", newPassword: visit.form["new_password"] ?? "")
            _ = try await desk.changePassword(change, by: visit.op)
            return ConsoleRenderer.redirect("/admin?done=password")
        }
        console.action(group, "/admin/sign-out", passwordPage: true) { request, _, visit in
            try await desk.close(visit.op)
            return ConsoleRenderer.redirect(
                "/admin/sign-in", headers: [.setCookie: OperatorGate.clearCookie(secure: OperatorGate.overTLS(request))])
        }
    }
}
