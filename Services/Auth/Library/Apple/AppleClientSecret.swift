import Foundation
import JWTKit

/// The `client_secret` of Apple's token endpoint: an ES256 JWT signed with the app's `.p8` key
/// (`iss` the team, `sub` the client id, `aud` Apple, header `kid` the key id), short-lived.
enum AppleClientSecret {
    struct Claims: JWTPayload {
        var iss: IssuerClaim
        var sub: SubjectClaim
        var aud: AudienceClaim
        var iat: IssuedAtClaim
        var exp: ExpirationClaim

        func verify(using algorithm: some JWTAlgorithm) throws {}
    }

    static let audience = "https://appleid.apple.com"
    static let lifetime: TimeInterval = 300

    static func make(_ key: AppleSignInKey, clientID: String, now: Date = Date()) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: try ES256PrivateKey(pem: key.privateKeyPEM), kid: JWKIdentifier(string: key.keyID))
        let claims = Claims(
            iss: IssuerClaim(value: key.teamID), sub: SubjectClaim(value: clientID), aud: AudienceClaim(value: [audience]),
            iat: IssuedAtClaim(value: now), exp: ExpirationClaim(value: now.addingTimeInterval(lifetime))
        )
        return try await keys.sign(claims, kid: JWKIdentifier(string: key.keyID))
    }
}
