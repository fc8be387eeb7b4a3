import Contracts
import Hummingbird
import ServiceKit

/// Users and sign-ins in the app's family of shapes: API.md §1 (`lslp`) or §8 (`slp`).
enum AccountRenderer {
    static func auth(_ signedIn: SignedIn) -> AuthAnswer {
        let user = signedIn.user
        return AuthAnswer(
            userID: user.id, email: user.email, nick: user.nick, profileImage: user.profileImage,
            accessToken: signedIn.accessToken, refreshToken: signedIn.refreshToken)
    }

    /// A refresh's answer: the pair (§1), or the access token alone for workspace apps, whose
    /// refresh token does not rotate (§8).
    static func refreshed(_ tokens: TokenPair, profile: Dialect?) -> Response {
        profile == .slp ? JSONCoding.response(body: SlpAccessToken(accessToken: tokens.accessToken)) : JSONCoding.response(body: tokens)
    }

    static func authOut(_ signedIn: SignedIn) -> SlpAuthOut {
        SlpAuthOut(
            account(signedIn.user, provider: signedIn.provider),
            SlpSession(token: .init(accessToken: signedIn.accessToken, refreshToken: signedIn.refreshToken)))
    }

    static func me(_ user: UserRecord, provider: String, coins: Int) -> SlpMe {
        SlpMe(account(user, provider: provider), SlpCoins(sesacCoin: coins))
    }

    private static func account(_ user: UserRecord, provider: String?) -> SlpAccount {
        SlpAccount(
            userID: user.id, email: user.email, nickname: user.nick, profileImage: user.profileImage, phone: phone(user), provider: provider,
            createdAt: GlintDate.string(fromMilliseconds: user.createdAt))
    }

    static func user(_ user: UserRecord) -> SlpUser {
        SlpUser(userID: user.id, email: user.email, nickname: user.nick, profileImage: user.profileImage)
    }

    /// Left out when the user gave none.
    private static func phone(_ user: UserRecord) -> String? { user.phoneNum.isEmpty ? nil : user.phoneNum }
}
