import AsyncHTTPClient
import Foundation
import JWTKit
import Logging
import NIOCore
import NIOHTTP1
import Synchronization

/// APNs over HTTP/2 (`POST /3/device/{token}`) with an ES256 provider token, renewed every 40
/// minutes (Apple accepts 20 to 60).
final class APNsClient: Sendable {
    struct Credentials: Sendable {
        var keyPEM: String
        var keyID: String
        var teamID: String
        var topic: String
    }

    struct ProviderClaims: JWTPayload {
        var iss: String
        var iat: Int64

        func verify(using _: some JWTAlgorithm) throws {}
    }

    static let tokenLifetime: Duration = .seconds(40 * 60)

    private let http: HTTPClient
    private let baseURL: String
    private let credentials: Credentials
    private let keys: JWTKeyCollection
    private let token = Mutex<(value: String, until: ContinuousClock.Instant)?>(nil)

    /// `http` must speak HTTP/2 (AsyncHTTPClient negotiates it over TLS).
    init(http: HTTPClient, baseURL: String, credentials: Credentials) async throws {
        self.http = http
        self.baseURL = baseURL
        self.credentials = credentials
        keys = JWTKeyCollection()
        await keys.add(ecdsa: try ES256PrivateKey(pem: credentials.keyPEM), kid: JWKIdentifier(string: credentials.keyID))
    }

    func send(_ deviceToken: String, _ message: PushMessage) async -> DeliveryResult {
        var payload: [String: Any] = message.data
        payload["aps"] = ["alert": ["title": message.title, "body": message.body], "sound": "default"]
        var request = HTTPClientRequest(url: "\(baseURL)/3/device/\(deviceToken)")
        request.method = .POST
        do {
            request.headers.add(name: "authorization", value: "bearer " + (try await providerToken()))
            request.headers.add(name: "apns-topic", value: credentials.topic)
            request.headers.add(name: "apns-push-type", value: "alert")
            request.headers.add(name: "apns-priority", value: "10")
            request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: payload)))
            let response = try await http.execute(request, timeout: .seconds(15))
            let body = try await response.body.collect(upTo: 64 << 10)
            return Self.result(status: response.status, body: body, dropToken: { self.token.withLock { $0 = nil } })
        } catch {
            return .retry("APNs unreachable: \(error)", after: nil)
        }
    }

    /// APNs' answer (`{"reason": ...}`) as a delivery result.
    static func result(status: HTTPResponseStatus, body: ByteBuffer, dropToken: () -> Void) -> DeliveryResult {
        if status == .ok { return .sent }
        let reason = ((try? JSONSerialization.jsonObject(with: Data(body.readableBytesView))) as? [String: Any])?["reason"] as? String ?? ""
        let text = "APNs \(status.code) \(reason)"
        switch status.code {
        case 410: return .dead(text)
        case 400 where reason == "BadDeviceToken" || reason == "DeviceTokenNotForTopic": return .dead(text)
        case 403 where reason == "ExpiredProviderToken" || reason == "InvalidProviderToken":
            dropToken()
            return .retry(text, after: nil)
        case 429, 500...599: return .retry(text, after: nil)
        default: return .failed(text)
        }
    }

    private func providerToken() async throws -> String {
        if let cached = token.withLock({ $0 }), cached.until > .now { return cached.value }
        let signed = try await keys.sign(
            ProviderClaims(iss: credentials.teamID, iat: Int64(Date().timeIntervalSince1970)),
            kid: JWKIdentifier(string: credentials.keyID))
        token.withLock { $0 = (signed, .now + Self.tokenLifetime) }
        return signed
    }
}
