import AsyncHTTPClient
import Foundation
import JWTKit
import Logging
import NIOCore
import NIOHTTP1
import ServiceKit
import Synchronization

/// FCM HTTP v1: `POST /v1/projects/{project}/messages:send` with an OAuth2 access token obtained
/// by a service-account JWT (RS256) grant and cached until shortly before it expires.
final class FCMClient: Sendable {
    enum Target: Sendable {
        case token(String)
        case topic(String)
    }

    /// The fields of a Firebase service-account file that are used.
    struct ServiceAccount: Decodable, Sendable {
        var projectID: String
        var clientEmail: String
        var privateKey: String
        var tokenURI: String

        enum CodingKeys: String, CodingKey {
            case projectID = "project_id"
            case clientEmail = "client_email"
            case privateKey = "private_key"
            case tokenURI = "token_uri"
        }
    }

    private let http: HTTPClient
    private let baseURL: String
    private let account: ServiceAccount
    private let keys: JWTKeyCollection
    private let logger: Logger
    private let token = Mutex<(value: String, until: ContinuousClock.Instant)?>(nil)

    init(http: HTTPClient, baseURL: String, account: ServiceAccount, logger: Logger) async throws {
        self.http = http
        self.baseURL = baseURL
        self.account = account
        self.logger = logger
        keys = JWTKeyCollection()
        await keys.add(rsa: try Insecure.RSA.PrivateKey(pem: account.privateKey), digestAlgorithm: .sha256)
    }

    func send(_ target: Target, _ message: PushMessage) async -> DeliveryResult {
        let accessToken: String
        do {
            accessToken = try await self.accessToken()
        } catch {
            return .retry("FCM OAuth token: \(error)", after: nil)
        }
        var body: [String: Any] = ["notification": ["title": message.title, "body": message.body], "data": message.data]
        switch target {
        case .token(let token): body["token"] = token
        case .topic(let topic): body["topic"] = topic
        }
        var request = HTTPClientRequest(url: "\(baseURL)/v1/projects/\(account.projectID)/messages:send")
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer " + accessToken)
        request.headers.add(name: "Content-Type", value: "application/json")
        do {
            request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: ["message": body])))
            let response = try await http.execute(request, timeout: .seconds(15))
            let answer = try await response.body.collect(upTo: 64 << 10)
            return Self.result(
                status: response.status, retryAfter: response.headers.first(name: "Retry-After"), body: answer,
                dropToken: { self.token.withLock { $0 = nil } })
        } catch {
            return .retry("FCM unreachable: \(error)", after: nil)
        }
    }

    /// FCM's answer as a delivery result (its error `status` names and HTTP codes).
    static func result(status: HTTPResponseStatus, retryAfter: String?, body: ByteBuffer, dropToken: () -> Void) -> DeliveryResult {
        if status == .ok { return .sent }
        let error = (try? JSONSerialization.jsonObject(with: Data(body.readableBytesView))) as? [String: Any]
        let details = (error?["error"] as? [String: Any])
        let code = details?["status"] as? String ?? ""
        let errorCodes = ((details?["details"] as? [[String: Any]]) ?? []).compactMap { $0["errorCode"] as? String }
        let reason = "FCM \(status.code) \(code) \(errorCodes.joined(separator: ","))"
        switch status.code {
        case 404: return .dead(reason)
        case 400 where errorCodes.contains("INVALID_ARGUMENT") || code == "INVALID_ARGUMENT": return .failed(reason)
        case 401:
            dropToken()
            return .retry(reason, after: nil)
        case 429, 500...599: return .retry(reason, after: retryAfter.flatMap(Double.init))
        default: return errorCodes.contains("UNREGISTERED") || code == "UNREGISTERED" ? .dead(reason) : .failed(reason)
        }
    }

    private func accessToken() async throws -> String {
        if let cached = token.withLock({ $0 }), cached.until > .now { return cached.value }
        let now = Int64(Date().timeIntervalSince1970)
        let assertion = try await keys.sign(
            JWTBearerGrantClaims(
                iss: account.clientEmail, scope: "https://www.googleapis.com/auth/firebase.messaging",
                aud: account.tokenURI, iat: now, exp: now + 3600))
        var request = HTTPClientRequest(url: account.tokenURI)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(
            ByteBuffer(string: FormEncoding.encode(["grant_type": "urn:ietf:params:oauth:grant-type:jwt-bearer", "assertion": assertion])))
        let response = try await http.execute(request, timeout: .seconds(15))
        let body = try await response.body.collect(upTo: 64 << 10)
        struct Grant: Decodable { var access_token: String; var expires_in: Int }
        guard response.status == .ok, let grant = try? JSONDecoder().decode(Grant.self, from: body) else {
            logger.error("FCM OAuth grant refused", metadata: ["status": "\(response.status.code)"])
            throw FCMError(description: "OAuth grant refused (\(response.status.code))")
        }
        token.withLock { $0 = (grant.access_token, .now + .seconds(max(0, grant.expires_in - 60))) }
        return grant.access_token
    }

    struct FCMError: Error, CustomStringConvertible {
        var description: String
    }
}
