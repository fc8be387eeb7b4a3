import CryptoExtras
import Foundation
import Hummingbird
import JWTKit
import ServiceKit

/// Sign in with Apple as our server sees it: a JWKS endpoint (`GET /auth/keys`, RS256 keys as
/// Apple publishes them) and identity tokens signed with the matching private key.
package final class AppleSimulator: Sendable {
    package static let issuer = "https://appleid.apple.com"
    package let server: LiveServer
    package let keyID: String
    private let keys: JWTKeyCollection

    package var keysURL: String { server.url + "/auth/keys" }

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
        let jwks = JWKS(keys: [JWK.rsa(
            .rs256, identifier: JWKIdentifier(string: keyID),
            modulus: Base64URL.encode(primitives.modulus), exponent: Base64URL.encode(primitives.publicExponent)
        )])
        let router = Router()
        router.get("/auth/keys") { _, _ in JSONCoding.response(body: jwks) }
        let keys = JWTKeyCollection()
        await keys.add(rsa: try Insecure.RSA.PrivateKey(backing: backing), digestAlgorithm: .sha256, kid: JWKIdentifier(string: keyID))
        return AppleSimulator(server: try await LiveServer.start(router), keyID: keyID, keys: keys)
    }

    private init(server: LiveServer, keyID: String, keys: JWTKeyCollection) {
        self.server = server
        self.keyID = keyID
        self.keys = keys
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
