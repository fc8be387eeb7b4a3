import CryptoExtras
import Foundation
import Hummingbird
import JWTKit
import NIOCore
import ServiceKit
import Synchronization

/// Sign in with Apple as our server sees it: a JWKS endpoint (`GET /auth/keys`, RS256 keys as
/// Apple publishes them), identity tokens signed with the matching private key, and the token
/// endpoint of the authorization-code flow (`POST /auth/token`: the client secret must be an
/// ES256 JWT of a registered team key; codes are single-use) with `POST /auth/revoke`.
package final class AppleSimulator: Sendable {
    package static let issuer = "https://appleid.apple.com"
    package let server: LiveServer
    package let keyID: String
    private let keys: JWTKeyCollection
    private let state: Mutex<CodeState>

    package var keysURL: String { server.url + "/auth/keys" }
    package var tokenURL: String { server.url + "/auth/token" }
    package var revokeURL: String { server.url + "/auth/revoke" }

    /// What an issued code yields (an identity token with these claims), and the flow's bookkeeping.
    package struct Grant: Sendable {
        var subject: String
        var clientID: String
        var email: String?
        var idTokenAudience: String?
        var issuer: String
        var expiresIn: TimeInterval
    }

    struct CodeState {
        var clients: [String: (teamID: String, keyID: String, key: JWTKeyCollection)] = [:]
        var codes: [String: Grant] = [:]
        var refreshTokens: [String: String] = [:]
        var revoked: [String] = []
        var exchanges = 0
    }

    package struct ClientSecretClaims: JWTPayload {
        var iss: IssuerClaim
        var sub: SubjectClaim
        var aud: AudienceClaim
        var exp: ExpirationClaim

        package func verify(using algorithm: some JWTAlgorithm) throws {
            try exp.verifyNotExpired()
            try aud.verifyIntendedAudience(includes: AppleSimulator.issuer)
        }
    }

    package struct IdentityClaims: JWTPayload {
        var iss: IssuerClaim
        var aud: AudienceClaim
        var sub: SubjectClaim
        var iat: IssuedAtClaim
        var exp: ExpirationClaim
        var email: String?

        package func verify(using algorithm: some JWTAlgorithm) throws {}
    }

    package static func start(keyID: String = "apple-sim-1") async throws -> AppleSimulator {
        let backing = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let primitives = try backing.publicKey.getKeyPrimitives()
        let jwks = JWKS(keys: [
            JWK.rsa(
                .rs256, identifier: JWKIdentifier(string: keyID),
                modulus: Base64URL.encode(primitives.modulus), exponent: Base64URL.encode(primitives.publicExponent)
            )
        ])
        let router = Router()
        router.get("/auth/keys") { _, _ in JSONCoding.response(body: jwks) }
        let keys = JWTKeyCollection()
        await keys.add(rsa: try Insecure.RSA.PrivateKey(backing: backing), digestAlgorithm: .sha256, kid: JWKIdentifier(string: keyID))
        let box = Box()
        router.post("/auth/token") { request, _ in try await box.simulator.token(try await Self.form(request)) }
        router.post("/auth/revoke") { request, _ in try await box.simulator.revoke(try await Self.form(request)) }
        let simulator = AppleSimulator(server: try await LiveServer.start(router), keyID: keyID, keys: keys)
        box.set(simulator)
        return simulator
    }

    /// The routes are made before the simulator they call.
    private final class Box: Sendable {
        private let value = Mutex<AppleSimulator?>(nil)
        func set(_ simulator: AppleSimulator) { value.withLock { $0 = simulator } }
        var simulator: AppleSimulator { value.withLock { $0! } }
    }

    private init(server: LiveServer, keyID: String, keys: JWTKeyCollection) {
        self.server = server
        self.keyID = keyID
        self.keys = keys
        self.state = Mutex(CodeState())
    }

    /// A team key registered for a client id (what the developer account holds).
    package func registerClient(_ clientID: String, teamID: String, keyID: String, publicKey: ES256PublicKey) async {
        let collection = JWTKeyCollection()
        await collection.add(ecdsa: publicKey, kid: JWKIdentifier(string: keyID))
        state.withLock { $0.clients[clientID] = (teamID, keyID, collection) }
    }

    /// An authorization code as the device receives it; the `id_token` it yields can be made
    /// wrong on purpose (another audience, issuer, or already expired).
    package func issueCode(
        subject: String, clientID: String, email: String? = nil, idTokenAudience: String? = nil,
        issuer: String = AppleSimulator.issuer, expiresIn: TimeInterval = 600
    ) -> String {
        let code = "c" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        state.withLock {
            $0.codes[code] = Grant(
                subject: subject, clientID: clientID, email: email, idTokenAudience: idTokenAudience, issuer: issuer, expiresIn: expiresIn)
        }
        return code
    }

    package var revokedTokens: [String] { state.withLock { $0.revoked } }
    package var issuedRefreshTokens: Set<String> { state.withLock { Set($0.refreshTokens.keys) } }
    package var exchanges: Int { state.withLock { $0.exchanges } }

    private static func form(_ request: Request) async throws -> [String: String] {
        FormEncoding.decode(String(buffer: try await request.body.collect(upTo: 64 << 10)))
    }

    private static func refusal(_ error: String) -> Response {
        Response(
            status: .badRequest, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: #"{"error":"\#(error)"}"#)))
    }

    /// Apple's checks of a client: its secret is a JWT of the registered key, for this client.
    private func clientIsGenuine(_ form: [String: String]) async -> Bool {
        guard let clientID = form["client_id"], let secret = form["client_secret"],
            let client = state.withLock({ $0.clients[clientID] }),
            let claims = try? await client.key.verify(secret, as: ClientSecretClaims.self)
        else { return false }
        return claims.iss.value == client.teamID && claims.sub.value == clientID
    }

    private func token(_ form: [String: String]) async throws -> Response {
        state.withLock { $0.exchanges += 1 }
        guard form["grant_type"] == "authorization_code" else { return Self.refusal("unsupported_grant_type") }
        guard await clientIsGenuine(form) else { return Self.refusal("invalid_client") }
        guard let code = form["code"], let grant = state.withLock({ $0.codes.removeValue(forKey: code) }), grant.clientID == form["client_id"] else {
            return Self.refusal("invalid_grant")
        }
        let idToken = try await identityToken(
            subject: grant.subject, audience: grant.idTokenAudience ?? grant.clientID, email: grant.email,
            expiresIn: grant.expiresIn, issuer: grant.issuer)
        let refreshToken = "r" + UUID().uuidString.lowercased()
        state.withLock { $0.refreshTokens[refreshToken] = grant.subject }
        return JSONCoding.response(body: [
            "access_token": "a" + UUID().uuidString.lowercased(), "token_type": "Bearer", "refresh_token": refreshToken, "id_token": idToken,
        ])
    }

    private func revoke(_ form: [String: String]) async throws -> Response {
        guard await clientIsGenuine(form) else { return Self.refusal("invalid_client") }
        if let token = form["token"] { state.withLock { $0.revoked.append(token) } }
        return Response(status: .ok)
    }

    /// An identity token as the device receives it from Apple.
    package func identityToken(
        subject: String, audience: String, email: String? = nil, expiresIn: TimeInterval = 600, issuer: String = AppleSimulator.issuer
    ) async throws -> String {
        let now = Date()
        let claims = IdentityClaims(
            iss: IssuerClaim(value: issuer), aud: AudienceClaim(value: [audience]), sub: SubjectClaim(value: subject),
            iat: IssuedAtClaim(value: now), exp: ExpirationClaim(value: now.addingTimeInterval(expiresIn)), email: email
        )
        return try await keys.sign(claims, kid: JWKIdentifier(string: keyID))
    }

    package func stop() async { await server.stop() }
}
