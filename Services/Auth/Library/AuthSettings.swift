import FileStorage
import Foundation
import ServiceKit
import Storage

/// auth-svc's own environment variables.
package enum AuthSettings {
    package static let signingKeyFile = ConfigVariable(
        "AUTH_SIGNING_KEY_FILE", default: "", "PEM file of the ES256 signing key; default <DATA_DIR>/auth-signing-key.pem, created on first start")
    package static let sealingKeyFile = ConfigVariable(
        "AUTH_SEALING_KEY_FILE", default: "",
        "file of the key sealing stored provider tokens and signing refresh tokens; default <DATA_DIR>/auth-sealing.key, created on first start (replicas must share it)"
    )
    package static let developmentAppKey = ConfigVariable(
        "AUTH_DEV_APP_KEY", default: "", "key of the development app created on first start with no apps (random when empty)")

    package static let accessTokenSeconds = ConfigVariable("AUTH_ACCESS_TOKEN_TTL_SECONDS", default: "900", "lifetime of access tokens")
    package static let refreshTokenSeconds = ConfigVariable(
        "AUTH_REFRESH_TOKEN_TTL_SECONDS", default: "1209600", "lifetime of refresh tokens (14 days)")
    package static let refreshReuseGraceSeconds = ConfigVariable(
        "AUTH_REFRESH_REUSE_GRACE_SECONDS", default: "10",
        "a refresh token just exchanged still answers the current one this long (concurrent refreshes of one device)")
    package static let bcryptCost = ConfigVariable(
        "AUTH_BCRYPT_COST", default: "10", "bcrypt cost of password hashes (10 or more in production; tests use 4)")
    package static let appleKeysURL = ConfigVariable(
        "AUTH_APPLE_KEYS_URL", default: "https://appleid.apple.com/auth/keys", "Apple's JWKS for identity tokens")
    package static let appleIssuer = ConfigVariable(
        "AUTH_APPLE_ISSUER", default: "https://appleid.apple.com", "expected iss of Apple identity tokens")
    package static let kakaoAPIURL = ConfigVariable(
        "AUTH_KAKAO_API_URL", default: "https://kapi.kakao.com", "Kakao API base URL (token info, user info)")
    package static let appleTokenURL = ConfigVariable(
        "AUTH_APPLE_TOKEN_URL", default: "https://appleid.apple.com/auth/token", "Apple's token endpoint (Sign in with Apple by authorization code)")
    package static let appleRevokeURL = ConfigVariable(
        "AUTH_APPLE_REVOKE_URL", default: "https://appleid.apple.com/auth/revoke", "Apple's token revocation endpoint (account deletion)")
    package static let databaseURL = ConfigVariable.databaseURL("AUTH", service: "auth-svc")
    package static let slpSignupCoins = ConfigVariable("SLP_SIGNUP_COINS", default: "100", "coins a new user of an slp (workspace) app starts with")

    package static var all: [ConfigVariable] {
        [
            signingKeyFile, sealingKeyFile, developmentAppKey, accessTokenSeconds, refreshTokenSeconds, refreshReuseGraceSeconds, bcryptCost,
            appleKeysURL, appleIssuer, appleTokenURL, appleRevokeURL, kakaoAPIURL, slpSignupCoins, databaseURL,
        ]
    }
}

struct AuthConfiguration: Sendable {
    var signingKeyPath: String
    var sealingKeyPath: String
    var developmentAppKey: String?
    var accessTokenLifetime: TimeInterval = 900
    var refreshTokenLifetime: TimeInterval = 1_209_600
    var refreshReuseGrace: TimeInterval = 10
    var bcryptCost = 10
    var appleKeysURL = "https://appleid.apple.com/auth/keys"
    var appleIssuer = "https://appleid.apple.com"
    var appleTokenURL = "https://appleid.apple.com/auth/token"
    var appleRevokeURL = "https://appleid.apple.com/auth/revoke"
    var kakaoAPIURL = "https://kapi.kakao.com"
    var slpSignupCoins = 100
    /// PostgreSQL instead of the SQLite file.
    var databaseURL: String?
    /// Where uploads are kept: the data folder, or a bucket.
    var files = FileStorageConfiguration.dataFolder

    init(signingKeyPath: String, sealingKeyPath: String, bcryptCost: Int) {
        self.signingKeyPath = signingKeyPath
        self.sealingKeyPath = sealingKeyPath
        self.bcryptCost = bcryptCost
    }

    init(common: CommonConfiguration, reader: ConfigReader) throws {
        let file = try reader.string(AuthSettings.signingKeyFile)
        signingKeyPath = file.isEmpty ? common.dataDirectory + "/auth-signing-key.pem" : file
        let sealingFile = try reader.string(AuthSettings.sealingKeyFile)
        sealingKeyPath = sealingFile.isEmpty ? common.dataDirectory + "/auth-sealing.key" : sealingFile
        var devKey = try reader.string(AuthSettings.developmentAppKey)
        if !devKey.isEmpty, !AppKey.isAcceptable(devKey) {
            devKey = try reader.refuse(AuthSettings.developmentAppKey, "must be 8-128 printable ASCII characters without spaces", standIn: "")
        }
        developmentAppKey = devKey.isEmpty ? nil : devKey
        accessTokenLifetime = TimeInterval(try reader.int(AuthSettings.accessTokenSeconds, in: 1...86_400))
        refreshTokenLifetime = TimeInterval(try reader.int(AuthSettings.refreshTokenSeconds, in: 60...31_536_000))
        refreshReuseGrace = TimeInterval(try reader.int(AuthSettings.refreshReuseGraceSeconds, in: 0...300))
        bcryptCost = try reader.int(AuthSettings.bcryptCost, in: 4...15)
        appleKeysURL = try reader.url(AuthSettings.appleKeysURL)
        appleIssuer = try reader.string(AuthSettings.appleIssuer)
        appleTokenURL = try reader.url(AuthSettings.appleTokenURL)
        appleRevokeURL = try reader.url(AuthSettings.appleRevokeURL)
        kakaoAPIURL = try reader.url(AuthSettings.kakaoAPIURL)
        slpSignupCoins = try reader.int(AuthSettings.slpSignupCoins, in: 0...10_000_000)
        databaseURL = try reader.databaseURL(AuthSettings.databaseURL)
        files = try FileStorageConfiguration(reader: reader)
        try reader.finish()
    }
}
