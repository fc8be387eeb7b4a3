import Contracts
import Hummingbird
import HTTPTypes
import ServiceKit

/// §1 sign-up, logins, refresh, logout, withdraw.
struct AccountRoutes: Sendable {
    let accounts: AccountService
    let users: any UserStore
    let social: SocialLoginVerifier
    private static let refreshHeaders = [HTTPField.Name("RefreshToken")!, HTTPField.Name("Refresh")!]

    func register(public group: ServiceApplication.Group, protected: ServiceApplication.Group) {
        group.post("/v1/users/validation/email") { request, context -> MessageAnswer in
            let body = try await request.decode(as: EmailValidationRequest.self, context: context)
            let email = try AccountRules.email(body.email)
            if try await users.user(email: email, appID: try context.requireAppID()) != nil {
                throw ServiceError(.conflict, "email already registered")
            }
            return MessageAnswer(message: "사용 가능한 이메일입니다.")
        }
        group.post("/v1/users/join") { request, context -> JoinAnswer in
            let body = try await request.decode(as: JoinRequest.self, context: context)
            return JoinAnswer(auth: try await accounts.join(appID: try context.requireAppID(), body))
        }
        group.post("/v1/users/login") { request, context -> AuthAnswer in
            let body = try await request.decode(as: LoginRequest.self, context: context)
            return try await accounts.login(appID: try context.requireAppID(), body)
        }
        group.post("/v1/users/login/apple") { request, context -> AuthAnswer in
            let body = try await request.decode(as: AppleLoginRequest.self, context: context)
            let appID = try context.requireAppID()
            let identity = try await social.apple(idToken: body.idToken, appID: appID, nick: body.nick)
            return try await accounts.socialLogin(appID: appID, identity: identity, deviceToken: body.deviceToken)
        }
        group.post("/v1/users/login/kakao") { request, context -> AuthAnswer in
            let body = try await request.decode(as: KakaoLoginRequest.self, context: context)
            let appID = try context.requireAppID()
            let identity = try await social.kakao(accessToken: body.oauthToken, appID: appID)
            return try await accounts.socialLogin(appID: appID, identity: identity, deviceToken: body.deviceToken)
        }
        group.get("/v1/auth/refresh") { request, context -> TokenPair in
            let refresh = Self.refreshHeaders.lazy.compactMap { request.headers[$0] }.first
            return try await accounts.refresh(
                appID: try context.requireAppID(), accessToken: AccessTokenMiddleware.token(from: request), refreshToken: refresh
            )
        }
        protected.post("/v1/users/logout") { _, context -> EmptyAnswer in
            try await accounts.logout(try context.requireUser())
            return EmptyAnswer()
        }
        protected.get("/v1/users/withdraw") { _, context -> WithdrawAnswer in
            try await accounts.withdraw(try context.requireUser())
        }
    }
}
