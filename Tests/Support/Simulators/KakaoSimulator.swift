import Foundation
import Hummingbird
import ServiceKit
import Synchronization

/// Kakao's REST API as our server uses it: `GET /v1/user/access_token_info` (which Kakao app a
/// token belongs to) and `GET /v2/user/me` (profile), both with `Authorization: Bearer <token>`.
package final class KakaoSimulator: Sendable {
    package struct Account: Sendable {
        package var userID: Int64
        package var appID: Int64
        package var nickname: String?
        package var email: String?

        package init(userID: Int64, appID: Int64, nickname: String? = nil, email: String? = nil) {
            self.userID = userID
            self.appID = appID
            self.nickname = nickname
            self.email = email
        }
    }

    /// Issued tokens, shared by the handlers and the test.
    final class Registry: Sendable {
        let tokens = Mutex<[String: Account]>([:])
    }

    package let server: LiveServer
    private let registry: Registry

    package var url: String { server.url }

    struct TokenInfo: Encodable { var id: Int64; var expires_in: Int; var app_id: Int64 }
    struct Failure: Encodable { var msg: String; var code: Int }
    struct Me: Encodable {
        struct KakaoAccount: Encodable {
            struct Profile: Encodable { var nickname: String? }
            var email: String?
            var profile: Profile
        }
        var id: Int64
        var kakao_account: KakaoAccount
    }

    package static func start() async throws -> KakaoSimulator {
        let registry = Registry()
        let router = Router()
        @Sendable func account(_ request: Request) -> Account? {
            guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else { return nil }
            return registry.tokens.withLock { $0[String(header.dropFirst(7))] }
        }
        let invalid = JSONCoding.response(status: .unauthorized, body: Failure(msg: "this access token does not exist", code: -401))
        router.get("/v1/user/access_token_info") { request, _ in
            guard let account = account(request) else { return invalid }
            return JSONCoding.response(body: TokenInfo(id: account.userID, expires_in: 7199, app_id: account.appID))
        }
        router.get("/v2/user/me") { request, _ in
            guard let account = account(request) else { return invalid }
            return JSONCoding.response(
                body: Me(id: account.userID, kakao_account: .init(email: account.email, profile: .init(nickname: account.nickname))))
        }
        return KakaoSimulator(server: try await LiveServer.start(router), registry: registry)
    }

    private init(server: LiveServer, registry: Registry) {
        self.server = server
        self.registry = registry
    }

    /// Issues an access token for `account`, as Kakao's SDK would on the device.
    package func issueToken(for account: Account) -> String {
        let token = "kakao-" + UUID().uuidString
        registry.tokens.withLock { $0[token] = account }
        return token
    }

    package func stop() async { await server.stop() }
}
