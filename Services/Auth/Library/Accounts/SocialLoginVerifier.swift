import AsyncHTTPClient
import Foundation
import JWTKit
import NIOCore
import ServiceKit

/// Proves who a social login is: Apple identity tokens by signature (Apple's JWKS), issuer,
/// audience (the app's configured client ids) and expiry; Kakao access tokens by asking Kakao's
/// token-info API, which also names the Kakao app the token belongs to.
struct SocialLoginVerifier: Sendable {
    let apps: AppService
    let appleKeys: KeySetCache
    let appleIssuer: String
    let kakaoAPIURL: String
    let http: HTTPClient

    struct AppleClaims: JWTPayload {
        var iss: IssuerClaim
        var aud: AudienceClaim
        var sub: SubjectClaim
        var exp: ExpirationClaim
        var email: String?

        func verify(using algorithm: some JWTAlgorithm) throws {
            try exp.verifyNotExpired()
        }
    }

    func apple(idToken: String, appID: String, nick: String?) async throws -> SocialIdentity {
        guard let app = try await apps.find(id: appID), !app.appleAudiences.isEmpty else {
            throw ServiceError.badRequest("Apple login is not enabled for this app")
        }
        let claims: AppleClaims
        do {
            claims = try await appleKeys.verify(idToken, as: AppleClaims.self)
        } catch {
            throw ServiceError(.loginFailed, "invalid Apple identity token")
        }
        guard claims.iss.value == appleIssuer else { throw ServiceError(.loginFailed, "Apple identity token from another issuer") }
        guard claims.aud.value.contains(where: app.appleAudiences.contains) else {
            throw ServiceError(.loginFailed, "Apple identity token for another app")
        }
        return SocialIdentity(provider: "apple", subject: claims.sub.value, email: claims.email, nick: nick)
    }

    struct KakaoTokenInfo: Decodable {
        var id: Int64
        var appID: Int64

        enum CodingKeys: String, CodingKey {
            case id
            case appID = "app_id"
        }
    }

    struct KakaoUser: Decodable {
        struct Account: Decodable {
            struct Profile: Decodable { var nickname: String? }
            var email: String?
            var profile: Profile?
        }

        var kakaoAccount: Account?

        enum CodingKeys: String, CodingKey {
            case kakaoAccount = "kakao_account"
        }
    }

    func kakao(accessToken: String, appID: String) async throws -> SocialIdentity {
        guard let app = try await apps.find(id: appID), !app.kakaoAppID.isEmpty else {
            throw ServiceError.badRequest("Kakao login is not enabled for this app")
        }
        guard (1...2048).contains(accessToken.utf8.count), accessToken.utf8.allSatisfy({ $0 > 32 && $0 < 127 }) else {
            throw ServiceError(.loginFailed, "invalid Kakao token")
        }
        let info: KakaoTokenInfo
        do {
            info = try await kakaoGet("/v1/user/access_token_info", token: accessToken, as: KakaoTokenInfo.self)
        } catch let error as ServiceError {
            throw error
        } catch {
            throw ServiceError(.loginFailed, "invalid Kakao token")
        }
        guard String(info.appID) == app.kakaoAppID else { throw ServiceError(.loginFailed, "Kakao token of another app") }
        // The profile is a courtesy: without it the user still logs in with a generated nick.
        let user = try? await kakaoGet("/v2/user/me", token: accessToken, as: KakaoUser.self)
        return SocialIdentity(
            provider: "kakao", subject: String(info.id), email: user?.kakaoAccount?.email, nick: user?.kakaoAccount?.profile?.nickname)
    }

    private func kakaoGet<Answer: Decodable>(_ path: String, token: String, as _: Answer.Type) async throws -> Answer {
        var request = HTTPClientRequest(url: kakaoAPIURL + path)
        request.headers.add(name: "Authorization", value: "Bearer " + token)
        let response: HTTPClientResponse
        do {
            response = try await http.execute(request, timeout: .seconds(5))
        } catch {
            throw ServiceError(.unavailable, "Kakao is unreachable")
        }
        let body = try await response.body.collect(upTo: 1 << 20)
        if response.status.code >= 500 { throw ServiceError(.unavailable, "Kakao answered \(response.status.code)") }
        guard response.status.code == 200 else { throw ServiceError(.loginFailed, "invalid Kakao token") }
        return try JSONDecoder().decode(Answer.self, from: body)
    }
}
