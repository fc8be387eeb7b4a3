import Logging
import ServiceKit

/// Revokes a revoked account's Apple grant at Apple (API.md §9; run from auth-svc's outbox, so a
/// failure is retried): the client secret signed with the app's key, the token unsealed.
struct AppleGrantRevoker: Sendable {
    let apps: AppService
    let apple: AppleTokenClient
    let sealing: SealingKey
    let logger: Logger

    /// An app whose Apple settings are gone can no longer sign the request: nothing to retry.
    func revoke(_ revocation: AppleRevocation) async throws {
        guard let app = try await apps.find(id: revocation.appID), let key = app.appleSignInKey, let clientID = app.appleAudiences.first else {
            logger.warning("Apple grant not revoked: the app has no Apple settings any more", metadata: ["user_id": "\(revocation.userID)"])
            return
        }
        let token = try sealing.open(revocation.sealedRefreshToken)
        try await apple.revoke(token, clientID, try await AppleClientSecret.make(key, clientID: clientID))
        logger.info("Apple grant revoked", metadata: ["user_id": "\(revocation.userID)"])
    }
}
