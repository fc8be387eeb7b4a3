import Foundation
import JWTKit

/// The assertion of an OAuth2 JWT-bearer grant (RFC 7523) as Google's token endpoint takes it
/// from a service account: push-svc signs it for FCM, the FCM simulator checks it.
package struct JWTBearerGrantClaims: JWTPayload, Equatable {
    package var iss: String
    package var scope: String
    package var aud: String
    package var iat: Int64
    package var exp: Int64

    package init(iss: String, scope: String, aud: String, iat: Int64, exp: Int64) {
        self.iss = iss
        self.scope = scope
        self.aud = aud
        self.iat = iat
        self.exp = exp
    }

    package func verify(using _: some JWTAlgorithm) throws {
        guard exp > Int64(Date().timeIntervalSince1970) else { throw JWTError.claimVerificationFailure(failedClaim: nil, reason: "expired") }
    }
}
