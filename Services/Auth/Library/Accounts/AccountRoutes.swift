import Contracts
import HTTPTypes
import Hummingbird
import ServiceKit

/// §1 sign-up, logins, refresh, logout, withdraw, answered in the app's family of shapes (§8
/// for workspace apps: nested tokens, `nickname`, signup coins, refresh without rotation).
struct AccountRoutes: Sendable {
    let accounts: AccountService
    let users: any UserStore
    let social: SocialLoginVerifier
    /// Coins a new user of a workspace app starts with.
    let slpSignupCoins: Int
    private static let refreshHeaders = [HTTPField.Name("RefreshToken")!, HTTPField.Name("Refresh")!]

    func register(public group: ServiceApplication.Group, protected: ServiceApplication.Group) {
        group.post("/v1/users/validation/email") { request, context -> Response in
            let body = try await request.decode(as: EmailValidationRequest.self, context: context)
            let email = try AccountRules.email(body.email)
            if try await users.user(email: email, appID: try context.requireAppID()) != nil {
                throw ServiceError(.conflict, "email already registered")
            }
            return context.appProfile == .slp
                ? JSONCoding.response(body: EmptyAnswer()) : JSONCoding.response(body: MessageAnswer(message: "사용 가능한 이메일입니다."))
        }
        group.post("/v1/users/join") { request, context -> Response in
            let appID = try context.requireAppID()
            guard context.appProfile == .slp else {
                let body = try await request.decode(as: JoinRequest.self, context: context)
                return JSONCoding.response(body: JoinAnswer(auth: AccountRenderer.auth(try await accounts.join(appID: appID, body))))
            }
            let body = try await request.decode(as: SlpJoinRequest.self, context: context)
            let fields = JoinRequest(
                email: body.email, password: body.password, nick: body.nickname, phoneNum: body.phone, deviceToken: body.deviceToken)
            return JSONCoding.response(body: AccountRenderer.authOut(try await accounts.join(appID: appID, fields, signupCoins: slpSignupCoins)))
        }
        group.post("/v1/users/login") { request, context -> Response in
            let body = try await request.decode(as: LoginRequest.self, context: context)
            return Self.signedIn(try await accounts.login(appID: try context.requireAppID(), body), context)
        }
        group.post("/v1/users/login/apple") { request, context -> Response in
            let appID = try context.requireAppID()
            let (idToken, nick, deviceToken): (String, String?, String?)
            if context.appProfile == .slp {
                let body = try await request.decode(as: SlpAppleLoginRequest.self, context: context)
                (idToken, nick, deviceToken) = (body.idToken, body.nickname, body.deviceToken)
            } else {
                let body = try await request.decode(as: AppleLoginRequest.self, context: context)
                (idToken, nick, deviceToken) = (body.idToken, body.nick, body.deviceToken)
            }
            let identity = try await social.apple(idToken: idToken, appID: appID, nick: nick)
            return Self.signedIn(try await accounts.socialLogin(appID: appID, identity: identity, deviceToken: deviceToken), context)
        }
        group.post("/v1/users/login/kakao") { request, context -> Response in
            let body = try await request.decode(as: KakaoLoginRequest.self, context: context)
            let appID = try context.requireAppID()
            let identity = try await social.kakao(accessToken: body.oauthToken, appID: appID)
            return Self.signedIn(try await accounts.socialLogin(appID: appID, identity: identity, deviceToken: body.deviceToken), context)
        }
        group.get("/v1/auth/refresh") { request, context -> Response in
            try Self.refuseHead(request)
            let refresh = Self.refreshHeaders.lazy.compactMap { request.headers[$0] }.first
            let slp = context.appProfile == .slp
            let tokens: TokenPair
            do {
                tokens = try await accounts.refresh(
                    appID: try context.requireAppID(), accessToken: AccessTokenMiddleware.token(from: request), refreshToken: refresh, rotate: !slp
                )
            } catch let error as ServiceError where slp && (error.code == .tokenInvalid || error.code == .tokenExpired) {
                // A workspace app answers E05 by refreshing: a refresh refused for its access
                // token must be E06, which signs the user out, or the app would loop (API.md §8).
                throw ServiceError(.refreshInvalid, error.message)
            }
            return AccountRenderer.refreshed(tokens, profile: context.appProfile)
        }
        protected.post("/v1/users/logout") { _, context -> EmptyAnswer in
            try await accounts.logout(try context.requireUser())
            return EmptyAnswer()
        }
        protected.get("/v1/users/withdraw") { request, context -> WithdrawAnswer in
            try Self.refuseHead(request)
            return try await accounts.withdraw(try context.requireUser())
        }
    }

    /// The router answers HEAD with a GET's handler; a GET that changes state (refresh, withdraw)
    /// must not run for a HEAD, which clients may send as safe.
    private static func refuseHead(_ request: Request) throws {
        guard request.method != .head else { throw ServiceError(.unknownRoute, "unknown route") }
    }

    private static func signedIn(_ signedIn: SignedIn, _ context: GlintRequestContext) -> Response {
        context.appProfile == .slp
            ? JSONCoding.response(body: AccountRenderer.authOut(signedIn)) : JSONCoding.response(body: AccountRenderer.auth(signedIn))
    }
}
