import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdHTTP2
import JWTKit
import NIOSSL
import ServiceKit
import Synchronization

/// APNs as push-svc uses it: `POST /3/device/{token}` over HTTP/2 and TLS (a self-signed
/// certificate the client trusts by configuration), checking the ES256 provider token and the
/// topic. Tests mark tokens unregistered (410), make it answer 503, and read what it received.
package final class APNsSimulator: Sendable {
    package static let keyID = "SIMKEY0001", teamID = "SIMTEAM001", topic = "app.glint.sim"

    package struct Delivery: Sendable {
        package var token: String
        /// The request came over HTTP/2 (its pseudo-header scheme is set; HTTP/1.1 has none).
        package var http2: Bool
        package var payload: [String: any Sendable]
    }

    final class State: Sendable {
        let received = Mutex<[Delivery]>([])
        let unregistered = Mutex<Set<String>>([])
        let failures = FailureCountdown()
    }

    package let server: LiveServer
    /// The provider key push-svc signs with (a `.p8` file's content).
    package let authKeyPEM: String
    /// The certificate to trust (`PUSH_APNS_CA_FILE`); the same for every simulator of a process.
    package let certificatePEM: String
    package static var sharedCertificatePEM: String { get throws { try SelfSignedCertificate.shared.get().certificatePEM } }
    private let state: State

    package var url: String { "https://127.0.0.1:\(server.port)" }

    package static func start() async throws -> APNsSimulator {
        let state = State()
        let authKey = ES256PrivateKey()
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: authKey.publicKey, kid: JWKIdentifier(string: keyID))
        let certificate = try SelfSignedCertificate.shared.get()
        let router = Router()
        router.post("/3/device/{token}") { request, context in
            let token = context.parameters.get("token") ?? ""
            guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer "),
                let claims = try? await keys.verify(String(header.dropFirst(7)), as: ProviderClaims.self), claims.iss == teamID
            else {
                return reason(403, "InvalidProviderToken")
            }
            guard request.headers[HTTPField.Name("apns-topic")!] == topic else { return reason(400, "DeviceTokenNotForTopic") }
            if state.failures.take() { return reason(503, "ServiceUnavailable") }
            guard token.utf8.count == 64 else { return reason(400, "BadDeviceToken") }
            if state.unregistered.withLock({ $0.contains(token) }) { return reason(410, "Unregistered") }
            let body = try await request.body.collect(upTo: 5_000)
            guard body.readableBytes <= 4_096, let payload = (try? JSONSerialization.jsonObject(with: Data(body.readableBytesView))) as? [String: Any]
            else {
                return reason(413, "PayloadTooLarge")
            }
            state.received.withLock { $0.append(Delivery(token: token, http2: request.head.scheme != nil, payload: payload.mapValues { "\($0)" })) }
            return Response(status: .ok, headers: [HTTPField.Name("apns-id")!: UUID().uuidString])
        }
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(try NIOSSLCertificate(bytes: Array(certificate.certificatePEM.utf8), format: .pem))],
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(certificate.privateKeyPEM.utf8), format: .pem))
        )
        tls.applicationProtocols = ["h2"]
        let server = try await LiveServer.start(router, server: .http2Upgrade(tlsConfiguration: tls))
        return APNsSimulator(server: server, authKeyPEM: authKey.pemRepresentation, certificatePEM: certificate.certificatePEM, state: state)
    }

    struct ProviderClaims: JWTPayload {
        var iss: String
        var iat: Int64

        func verify(using _: some JWTAlgorithm) throws {
            guard iat > Int64(Date().timeIntervalSince1970) - 3600 else {
                throw JWTError.claimVerificationFailure(failedClaim: nil, reason: "ExpiredProviderToken")
            }
        }
    }

    static func reason(_ status: Int, _ reason: String) -> Response {
        JSONCoding.response(status: .init(code: status), body: ["reason": reason])
    }

    private init(server: LiveServer, authKeyPEM: String, certificatePEM: String, state: State) {
        self.server = server
        self.authKeyPEM = authKeyPEM
        self.certificatePEM = certificatePEM
        self.state = state
    }

    package var received: [Delivery] { state.received.withLock { $0 } }
    package func unregister(_ token: String) { state.unregistered.withLock { _ = $0.insert(token) } }
    package func fail(next count: Int) { state.failures.set(count) }

    package func stop() async { await server.stop() }
}
