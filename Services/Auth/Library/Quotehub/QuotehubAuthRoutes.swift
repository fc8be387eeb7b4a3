import Contracts
import HTTPTypes
import Hummingbird
import ServiceKit

/// API.md §9's `/auth/…` routes of quotehub apps (mount-relative: the gateway strips the mount),
/// every answer in the envelope.
struct QuotehubAuthRoutes: Sendable {
    let users: any UserStore
    let nicknames: NicknameGenerator
    let apple: AppleCodeSignIn
    let accounts: AccountService
    private static let refreshHeader = HTTPField.Name("x-refresh-token")!

    func register(public group: ServiceApplication.Group, protected: ServiceApplication.Group) {
        protected.post("/auth/revoke") { _, context -> Envelope<AccountRevocation> in
            try await accounts.revoke(try context.requireUser(profile: .quotehub))
            return Envelope(message: "회원 탈퇴가 완료되었습니다.", data: AccountRevocation(revoked: true))
        }
        group.post("/auth/apple/callback") { request, context -> Envelope<AppleSignInAnswer> in
            let appID = try context.requireAppID(profile: .quotehub)
            let body = try await request.decode(as: AppleCodeRequest.self, context: context)
            let signedIn = try await apple.signIn(code: body.code, appID: appID)
            return Envelope(
                message: signedIn.isNewUser ? "회원가입 성공" : "로그인 성공",
                data: AppleSignInAnswer(
                    user: QuotehubRenderer(base: context.publicBase).user(signedIn.user), accessToken: signedIn.accessToken,
                    refreshToken: signedIn.refreshToken, isNewUser: signedIn.isNewUser
                ))
        }
        group.post("/auth/renew-token") { request, context -> Envelope<SlpAccessToken> in
            let appID = try context.requireAppID(profile: .quotehub)
            let access = try await accounts.renew(appID: appID, refreshToken: AccessTokenMiddleware.token(from: request))
            return Envelope(message: "토큰이 갱신되었습니다.", data: SlpAccessToken(accessToken: access))
        }
        group.post("/auth/validate-token") { request, context -> Envelope<TokenValidation> in
            let appID = try context.requireAppID(profile: .quotehub)
            let renewed = try await accounts.validate(
                appID: appID, accessToken: AccessTokenMiddleware.token(from: request),
                refreshToken: request.headers[Self.refreshHeader])
            guard let renewed else { return Envelope(message: "유효한 토큰입니다.", data: TokenValidation(valid: true)) }
            return Envelope(
                message: "토큰이 갱신되었습니다.", data: TokenValidation(valid: false, accessToken: renewed.accessToken, refreshToken: renewed.refreshToken))
        }
        group.get("/auth/generate-nickname") { _, context -> Envelope<GeneratedNickname> in
            let appID = try context.requireAppID(profile: .quotehub)
            return Envelope(message: "닉네임이 생성되었습니다.", data: GeneratedNickname(nickname: try await nicknames.generate(appID: appID)))
        }
        group.get("/auth/check-nickname") { request, context -> Envelope<NicknameAvailability> in
            let appID = try context.requireAppID(profile: .quotehub)
            let nickname = try NicknameGenerator.check(request.uri.queryParameters["nickname"].map(String.init))
            let available = try await !users.isNickTaken(nickname, appID: appID)
            return Envelope(message: available ? "사용 가능한 닉네임입니다." : "이미 사용 중인 닉네임입니다.", data: NicknameAvailability(available: available))
        }
    }
}
