import AsyncHTTPClient
import Foundation
import NIOCore
import ServiceKit

/// Apple's token endpoints (`AUTH_APPLE_TOKEN_URL`, `AUTH_APPLE_REVOKE_URL`) over real HTTP:
/// the authorization-code exchange and the revocation of a refresh token.
struct AppleTokenClient: Sendable {
    /// What Apple answers a code: the identity token to verify, and a refresh token to keep.
    struct Tokens: Decodable, Sendable {
        var idToken: String
        var refreshToken: String?

        enum CodingKeys: String, CodingKey {
            case idToken = "id_token"
            case refreshToken = "refresh_token"
        }
    }

    var exchange: @Sendable (_ code: String, _ clientID: String, _ clientSecret: String) async throws -> Tokens
    var revoke: @Sendable (_ refreshToken: String, _ clientID: String, _ clientSecret: String) async throws -> Void

    static func live(tokenURL: String, revokeURL: String, http: HTTPClient) -> AppleTokenClient {
        AppleTokenClient(
            exchange: { code, clientID, secret in
                let (status, body) = try await post(
                    tokenURL, ["client_id": clientID, "client_secret": secret, "code": code, "grant_type": "authorization_code"], http)
                // Apple answers 400 `invalid_grant` for a used, expired or foreign code.
                guard status == 200 else {
                    if (400..<500).contains(status) { throw ServiceError(.loginFailed, "Apple refused the authorization code") }
                    throw ServiceError(.unavailable, "Apple's token endpoint answered \(status)")
                }
                guard let tokens = try? JSONDecoder().decode(Tokens.self, from: body) else {
                    throw ServiceError(.unavailable, "Apple's token answer was not understood")
                }
                return tokens
            },
            revoke: { token, clientID, secret in
                let (status, _) = try await post(
                    revokeURL, ["client_id": clientID, "client_secret": secret, "token": token, "token_type_hint": "refresh_token"], http)
                guard status == 200 else { throw ServiceError(.unavailable, "Apple's revocation endpoint answered \(status)") }
            }
        )
    }

    private static func post(_ url: String, _ form: [String: String], _ http: HTTPClient) async throws -> (Int, ByteBuffer) {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(string: FormEncoding.encode(form)))
        do {
            let response = try await http.execute(request, timeout: .seconds(10))
            return (Int(response.status.code), try await response.body.collect(upTo: 1 << 20))
        } catch {
            throw ServiceError(.unavailable, "Apple could not be reached")
        }
    }

    /// No call expected: the first one fails the running test.
    static let unimplemented = AppleTokenClient(
        exchange: { _, _, _ in throw Unimplemented.call("AppleTokenClient.exchange") },
        revoke: { _, _, _ in throw Unimplemented.call("AppleTokenClient.revoke") }
    )
}
