import Contracts
import Foundation

/// One registered client app (API key + compatibility profile).
struct AppRecord: Codable, Equatable, Sendable {
    var id, name, apiKey: String
    var profile: Dialect
    var refreshWithAccessTokenOnly, emptyAuthErrorBodies, socketAuthOptional: Bool
    var createdAt: Int64
    /// Apple "Services ID"/bundle ids accepted as `aud` of identity tokens, comma-separated.
    var appleClientIDs: String = ""
    /// The Kakao app id whose tokens this app accepts.
    var kakaoAppID: String = ""
    /// The path prefix naming the app without a key (API.md §9).
    var mount: String?
    /// The key Apple gave the team for Sign in with Apple (a `.p8`): client secrets of the code
    /// exchange are signed with it. Empty when the app does not sign in by code.
    var appleTeamID = "", appleKeyID = "", applePrivateKey = ""
    /// The key a rotation replaced, accepted until `previousKeyExpiresAt`.
    var previousApiKey: String? = nil
    var previousKeyExpiresAt: Int64? = nil
    /// When an operator disabled the app: its keys and mount open nothing.
    var disabledAt: Int64? = nil

    enum CodingKeys: String, CodingKey {
        case id, name, profile
        case apiKey = "api_key"
        case refreshWithAccessTokenOnly = "refresh_with_access_token_only"
        case emptyAuthErrorBodies = "empty_auth_error_bodies"
        case socketAuthOptional = "socket_auth_optional"
        case createdAt = "created_at"
        case appleClientIDs = "apple_client_ids"
        case kakaoAppID = "kakao_app_id"
        case mount
        case appleTeamID = "apple_team_id"
        case appleKeyID = "apple_key_id"
        case applePrivateKey = "apple_private_key"
        case previousApiKey = "previous_api_key"
        case previousKeyExpiresAt = "previous_key_expires_at"
        case disabledAt = "disabled_at"
    }

    /// The code-exchange key, when the app has one.
    var appleSignInKey: AppleSignInKey? {
        applePrivateKey.isEmpty ? nil : AppleSignInKey(teamID: appleTeamID, keyID: appleKeyID, privateKeyPEM: applePrivateKey)
    }

    var appleAudiences: [String] {
        appleClientIDs.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// As operators see it: keys by their last four characters only.
    var detail: AppDetail {
        let previous = previousKeyExpiresAt.flatMap { $0 > GlintDate.nowMilliseconds() ? $0 : nil }
        return AppDetail(
            id: id, name: name, profile: profile, mount: mount, flags: info.flags, appleClientIds: appleAudiences, kakaoAppId: kakaoAppID,
            appleTeamId: appleTeamID.isEmpty ? nil : appleTeamID, appleKeyId: appleKeyID.isEmpty ? nil : appleKeyID,
            keyHint: String(apiKey.suffix(4)), previousKeyHint: previous == nil ? nil : previousApiKey.map { String($0.suffix(4)) },
            previousKeyExpiresAt: previous.map(GlintDate.string(fromMilliseconds:)), disabled: disabledAt != nil,
            createdAt: GlintDate.string(fromMilliseconds: createdAt))
    }

    var info: AppInfo {
        AppInfo(
            appID: id, name: name, profile: profile,
            flags: AppFlags(
                refreshWithAccessTokenOnly: refreshWithAccessTokenOnly,
                emptyAuthErrorBodies: emptyAuthErrorBodies,
                socketAuthOptional: socketAuthOptional
            ),
            mount: mount
        )
    }
}
