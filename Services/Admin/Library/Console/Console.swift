import Contracts
import Hummingbird
import ServiceKit

/// What every console page shares: the operator behind the cookie (signed out: the sign-in page;
/// still on the one-time password: the password page), the layout's chrome, forms that carry the
/// CSRF token as a field, POST/redirect/GET, and errors shown as a page in the layout.
struct Console: Sendable {
    let renderer: ConsoleRenderer
    let gate: OperatorGate
    let access: OperatorAccess

    /// A signed-in operator's request: who, the apps it sees, and the form it sent (POSTs).
    struct Visit: Sendable {
        var op: SignedInOperator
        var apps: [AppInfo]
        var form: [String: String] = [:]

        /// The app the path names, if the operator sees it (`notFound` otherwise, as the API).
        func app(_ context: GlintRequestContext) throws -> AppInfo {
            let id = try context.parameters.require("app_id")
            guard let app = apps.first(where: { $0.appID == id }) else { throw ServiceError.notFound("no such app") }
            return app
        }

        func field(_ name: String) -> String? {
            form[name].flatMap { $0.isEmpty ? nil : $0 }
        }
    }

    /// What a page shows: its template, title, and the data the template reads under `content`.
    struct Page {
        var template: String
        var title: String
        var content: Any
        var app: AppInfo?
        var status: HTTPResponse.Status = .ok
    }

    /// The largest form the console accepts (a reason, a few ids).
    static let formLimit = 64 * 1024

    /// One sentence per `?done=` code a redirect carries back (codes, not text: a link cannot put
    /// words in the console's mouth).
    static let notices: [String: String] = [
        "dismissed": "Reports dismissed.", "hidden": "Hidden from every app user.", "banned": "The user is banned.",
        "restored": "Shown again.", "unbanned": "The ban is lifted.", "signed-out": "The user is signed out everywhere.",
        "deleted": "The account is deleted.", "password": "Your password is changed.", "operator-changed": "The operator is changed.",
        "operator-removed": "The operator is removed.", "app-changed": "The app's settings are saved.",
        "app-disabled": "The app is disabled: its keys and mount open nothing.", "app-enabled": "The app is enabled again.",
        "refunded": "Refunded: PortOne cancelled the payment and its grant is taken back.",
        "test-push": "A test notification is queued to the user's devices.", "test-push-none": "The user has no device to send to.",
    ]

    func page(
        _ group: ServiceApplication.Group, _ path: RouterPath, passwordPage: Bool = false,
        _ build: @escaping @Sendable (Request, GlintRequestContext, Visit) async throws -> Page
    ) {
        group.get(path) { request, context -> Response in
            await respond(request, context, passwordPage: passwordPage) { visit in
                let page = try await build(request, context, visit)
                return render(page, visit, notice: request.uri.queryParameters["done"].flatMap { Self.notices[String($0)] })
            }
        }
    }

    /// A GET that answers something a page shows rather than a page (an image), for a signed-in
    /// operator only. Not sent to the password page: what the admin API reads for an operator
    /// still on its one-time password, this reads too.
    func resource(
        _ group: ServiceApplication.Group, _ path: RouterPath,
        _ answer: @escaping @Sendable (Request, GlintRequestContext, Visit) async throws -> Response
    ) {
        group.get(path) { request, context -> Response in
            await respond(request, context, passwordPage: true) { visit in try await answer(request, context, visit) }
        }
    }

    /// A form's POST: `act` does it through a desk and names the page to show next.
    func action(
        _ group: ServiceApplication.Group, _ path: RouterPath, passwordPage: Bool = false,
        _ act: @escaping @Sendable (Request, GlintRequestContext, Visit) async throws -> Response
    ) {
        group.post(path) { request, context -> Response in
            await respond(request, context, passwordPage: passwordPage, form: true) { visit in try await act(request, context, visit) }
        }
    }

    func render(_ page: Page, _ visit: Visit?, notice: String? = nil, headers: HTTPFields = [:]) -> Response {
        let chrome = Chrome(title: page.title, visit: visit, app: page.app, notice: notice)
        return renderer.page(page.template, View(chrome: chrome, content: page.content), status: page.status, headers: headers)
    }

    private func respond(
        _ request: Request, _ context: GlintRequestContext, passwordPage: Bool, form: Bool = false,
        _ body: (Visit) async throws -> Response
    ) async -> Response {
        var visit: Visit?
        do {
            let fields = form ? try await Self.form(request) : [:]
            let op = try await gate.admit(request, context, formToken: form ? (fields["csrf"] ?? "") : nil)
            if op.record.passwordChangedAt == nil, !passwordPage { return ConsoleRenderer.redirect("/admin/password") }
            visit = Visit(op: op, apps: try await access.apps(for: op.record).sorted { $0.name < $1.name }, form: fields)
            return try await body(visit!)
        } catch let error as ServiceError where error.code == .tokenInvalid {
            return ConsoleRenderer.redirect("/admin/sign-in")
        } catch {
            return failure(error, visit, context)
        }
    }

    /// An error as a page: the service's message for a 4xx, nothing internal for the rest.
    func failure(_ error: any Error, _ visit: Visit?, _ context: GlintRequestContext) -> Response {
        let failure: ServiceError
        switch error {
        case let error as ServiceError: failure = error
        case let error as any HTTPResponseError:
            failure = ServiceError(error.status.code == 413 ? .payloadTooLarge : .badRequest, (error as? HTTPError)?.body ?? "bad request")
        default:
            context.logger.error("console page failed", metadata: ["error": "\(String(reflecting: error))"])
            failure = ServiceError(.internalError, "internal error")
        }
        let page = Page(
            template: "error", title: "\(failure.status.code) \(failure.status.reasonPhrase)",
            content: ErrorView(status: failure.status.code, message: failure.message), status: failure.status)
        return render(page, visit)
    }

    /// The form a POST sent (`application/x-www-form-urlencoded`), at most `formLimit` bytes.
    static func form(_ request: Request) async throws -> [String: String] {
        let body = try await request.body.collect(upTo: formLimit)
        return FormEncoding.decode(String(buffer: body))
    }

    struct View {
        var chrome: Chrome
        var content: Any
    }

    struct ErrorView {
        var status: Int
        var message: String
    }
}
