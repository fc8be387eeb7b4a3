import Contracts
import Logging
import ServiceKit

/// Sign in with Apple by authorization code (API.md §9): the code is exchanged at Apple's token
/// endpoint with a client secret signed by the app's key, the `id_token` Apple answers verified
/// like any identity token, the user signed in by its `sub` (a new one gets a generated
/// nickname), and Apple's refresh token kept sealed for the account's revocation.
struct AppleCodeSignIn: Sendable {
    let apps: AppService
    let apple: AppleTokenClient
    let social: SocialLoginVerifier
    let accounts: AccountService
    let grants: any AppleGrantStore
    let sealing: SealingKey
    let nicknames: NicknameGenerator
    let logger: Logger

    func signIn(code: String, appID: String) async throws -> SignedIn {
        guard (1...4096).contains(code.utf8.count) else { throw ServiceError.badRequest("code required") }
        guard let app = try await apps.find(id: appID), let key = app.appleSignInKey, let clientID = app.appleAudiences.first else {
            throw ServiceError.badRequest("Sign in with Apple is not set up for this app")
        }
        let tokens = try await apple.exchange(code, clientID, try await AppleClientSecret.make(key, clientID: clientID))
        let identity = try await social.apple(idToken: tokens.idToken, appID: appID, nick: try await nicknames.generate(appID: appID))
        let signedIn = try await accounts.socialLogin(appID: appID, identity: identity, deviceToken: nil)
        if let refreshToken = tokens.refreshToken {
            try await grants.save(
                userID: signedIn.user.id, appID: appID, sealedRefreshToken: try sealing.seal(refreshToken), at: GlintDate.nowMilliseconds())
        } else {
            logger.warning("Apple gave no refresh token: this account's Apple grant cannot be revoked", metadata: ["user_id": "\(signedIn.user.id)"])
        }
        return signedIn
    }
}
