import Contracts
import HTTPTypes
import Hummingbird
import ServiceKit

/// The door of every admin route but sign-in: the address allow-list, the session cookie (401
/// without a live one; an app user's access token opens nothing here), and on a state-changing
/// call the session's CSRF token in `X-CSRF-Token` (403 without it).
struct OperatorGate: Sendable {
    let signIn: SignInService
    let allowed: NetworkAllowList

    static let cookieName = "glint_admin"
    static let csrfHeader = HTTPField.Name("X-CSRF-Token")!
    static let clientIPHeader = HTTPField.Name(InternalHeader.clientIP)!

    /// `formToken`: the console's forms carry the CSRF token as a field rather than a header.
    func admit(_ request: Request, _ context: GlintRequestContext, formToken: String? = nil) async throws -> SignedInOperator {
        let address = try address(of: request)
        guard let token = Self.cookie(Self.cookieName, in: request.headers[values: .cookie]),
            let (session, record) = try await signIn.session(token: token)
        else {
            throw ServiceError(.tokenInvalid, "sign in first")
        }
        if request.method != .get, request.method != .head {
            guard let sent = formToken ?? request.headers[Self.csrfHeader], ConstantTime.equals(sent.utf8, session.csrfToken.utf8)
            else {
                throw ServiceError(.forbidden, "missing or wrong X-CSRF-Token")
            }
        }
        return SignedInOperator(record: record, session: session, address: address, requestID: context.requestID)
    }

    /// The caller's address, if the allow-list lets it in (403 otherwise).
    func address(of request: Request) throws -> String {
        let address = request.headers[Self.clientIPHeader] ?? "unknown"
        guard allowed.allows(address) else { throw ServiceError(.forbidden, "the admin API is not open to this address") }
        return address
    }

    /// A cookie's value among `Cookie` headers (`a=b; c=d`).
    static func cookie(_ name: String, in headers: [String]) -> String? {
        for header in headers {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
                    return parts[1].trimmingCharacters(in: .whitespaces)
                }
            }
        }
        return nil
    }

    /// The session cookie: only for `/admin`, never readable by scripts, never sent cross-site;
    /// `Secure` when the client came over TLS (the proxy in front says so).
    static func setCookie(_ token: String, secure: Bool) -> String {
        "\(cookieName)=\(token); Path=/admin; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
    }

    static func clearCookie(secure: Bool) -> String {
        "\(cookieName)=; Path=/admin; HttpOnly; SameSite=Strict; Max-Age=0" + (secure ? "; Secure" : "")
    }

    static func overTLS(_ request: Request) -> Bool {
        request.headers[HTTPField.Name("X-Forwarded-Proto")!]?.lowercased() == "https"
    }
}
