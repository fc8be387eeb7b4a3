import CryptoExtras
import Foundation
import Hummingbird
import JWTKit
import ServiceKit
import Synchronization

/// FCM HTTP v1 as push-svc uses it: the Google OAuth token endpoint (`POST /token`, a service-
/// account JWT checked against the account's public key) and `POST /v1/projects/{p}/messages:send`.
/// Tests mark tokens unregistered, make it answer 503 for a while, and read what it received.
package final class FCMSimulator: Sendable {
    package static let projectID = "glint-sim"
    package static let clientEmail = "push@glint-sim.iam.gserviceaccount.com"

    /// One accepted message: its token or topic, and its data.
    package struct Delivery: Sendable, Equatable {
        package var token: String?
        package var topic: String?
        package var title: String?
        package var data: [String: String]
    }

    final class State: Sendable {
        let accessTokens = Mutex<Set<String>>([])
        let received = Mutex<[Delivery]>([])
        let unregistered = Mutex<Set<String>>([])
        let failures = FailureCountdown()
        let grants = Mutex(0)
    }

    struct Send: Decodable {
        struct Message: Decodable {
            struct Notification: Decodable { var title: String?; var body: String? }
            var token: String?
            var topic: String?
            var notification: Notification?
            var data: [String: String]?
        }
        var message: Message
    }

    package let server: LiveServer
    /// The service-account JSON push-svc reads (its private key signs the OAuth grants).
    package let serviceAccountJSON: String
    private let state: State

    package var url: String { server.url }

    package static func start() async throws -> FCMSimulator {
        let state = State()
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let keys = JWTKeyCollection()
        await keys.add(rsa: try Insecure.RSA.PublicKey(pem: key.publicKey.pemRepresentation), digestAlgorithm: .sha256)
        let router = Router()
        let tokenURL = Mutex("")
        router.post("/token") { request, _ in
            let form = String(buffer: try await request.body.collect(upTo: 64 << 10))
            let fields = Dictionary(
                form.split(separator: "&").map { pair -> (String, String) in
                    let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
                    return (parts[0], parts.count > 1 ? parts[1] : "")
                }, uniquingKeysWith: { $1 })
            guard fields["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer", let assertion = fields["assertion"],
                let claims = try? await keys.verify(assertion, as: JWTBearerGrantClaims.self), claims.iss == clientEmail,
                claims.aud == tokenURL.withLock({ $0 }), claims.scope.contains("firebase.messaging")
            else {
                return JSONCoding.response(status: .badRequest, body: ["error": "invalid_grant"])
            }
            state.grants.withLock { $0 += 1 }
            let token = "ya29.sim-" + UUID().uuidString
            state.accessTokens.withLock { _ = $0.insert(token) }
            return JSONCoding.response(body: GrantAnswer(access_token: token, expires_in: 3599, token_type: "Bearer"))
        }
        router.post("/v1/projects/{project}/messages:send") { request, context in
            guard let header = request.headers[.authorization], header.hasPrefix("Bearer "),
                state.accessTokens.withLock({ $0.contains(String(header.dropFirst(7))) })
            else {
                return Self.error(401, "UNAUTHENTICATED", nil)
            }
            guard context.parameters.get("project") == projectID else { return Self.error(404, "NOT_FOUND", nil) }
            if state.failures.take() {
                return Self.error(503, "UNAVAILABLE", nil)
            }
            guard let body = try? await request.decode(as: Send.self, context: context), (body.message.token == nil) != (body.message.topic == nil)
            else {
                return Self.error(400, "INVALID_ARGUMENT", "INVALID_ARGUMENT")
            }
            if let token = body.message.token, state.unregistered.withLock({ $0.contains(token) }) {
                return Self.error(404, "NOT_FOUND", "UNREGISTERED")
            }
            state.received.withLock {
                $0.append(
                    Delivery(
                        token: body.message.token, topic: body.message.topic, title: body.message.notification?.title, data: body.message.data ?? [:])
                )
            }
            return JSONCoding.response(body: ["name": "projects/\(projectID)/messages/\(UUID().uuidString)"])
        }
        // For scripts (the push benchmark): how many messages were accepted.
        router.get("/simulator/stats") { _, _ in
            JSONCoding.response(body: ["received": state.received.withLock { $0.count }])
        }
        let server = try await LiveServer.start(router)
        tokenURL.withLock { $0 = server.url + "/token" }
        let account = [
            "type": "service_account", "project_id": projectID, "client_email": clientEmail, "private_key": key.pemRepresentation,
            "token_uri": server.url + "/token",
        ]
        let json = String(decoding: try JSONSerialization.data(withJSONObject: account), as: UTF8.self)
        return FCMSimulator(server: server, serviceAccountJSON: json, state: state)
    }

    struct GrantAnswer: Encodable { var access_token: String; var expires_in: Int; var token_type: String }
    struct ErrorBody: Encodable {
        struct Inner: Encodable {
            struct Detail: Encodable {
                var type = "type.googleapis.com/google.firebase.fcm.v1.FcmError"
                var errorCode: String
                enum CodingKeys: String, CodingKey {
                    case type = "@type"
                    case errorCode
                }
            }
            var code: Int
            var status: String
            var details: [Detail]
        }
        var error: Inner
    }

    static func error(_ code: Int, _ status: String, _ errorCode: String?) -> Response {
        JSONCoding.response(
            status: .init(code: code),
            body: ErrorBody(error: .init(code: code, status: status, details: errorCode.map { [.init(errorCode: $0)] } ?? [])))
    }

    private init(server: LiveServer, serviceAccountJSON: String, state: State) {
        self.server = server
        self.serviceAccountJSON = serviceAccountJSON
        self.state = state
    }

    package var received: [Delivery] { state.received.withLock { $0 } }
    package var oauthGrants: Int { state.grants.withLock { $0 } }
    /// FCM answers `UNREGISTERED` for this token from now on.
    package func unregister(_ token: String) { state.unregistered.withLock { _ = $0.insert(token) } }
    /// The next `count` sends answer 503.
    package func fail(next count: Int) { state.failures.set(count) }

    package func stop() async { await server.stop() }
}
