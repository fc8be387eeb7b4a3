/// Apps as operators manage them (issue 36): what the `apps` command does, and key rotation and
/// disabling. A key is shown once, when made; afterwards only its last characters.

/// An app's settings as an operator sees them.
package struct AppDetail: Codable, Sendable, Equatable {
    package var id: String
    package var name: String
    package var profile: Dialect
    package var mount: String?
    package var flags: AppFlags
    package var appleClientIds: [String]
    package var kakaoAppId: String
    /// Sign in with Apple by code: the team and key ids of the `.p8` kept (never the key).
    package var appleTeamId: String?
    package var appleKeyId: String?
    /// The key's last four characters.
    package var keyHint: String
    /// A rotated-out key still accepted, and until when.
    package var previousKeyHint: String?
    package var previousKeyExpiresAt: String?
    package var disabled: Bool
    package var createdAt: String

    package init(
        id: String, name: String, profile: Dialect, mount: String?, flags: AppFlags, appleClientIds: [String], kakaoAppId: String,
        appleTeamId: String?, appleKeyId: String?, keyHint: String, previousKeyHint: String?, previousKeyExpiresAt: String?, disabled: Bool,
        createdAt: String
    ) {
        (self.id, self.name, self.profile, self.mount, self.flags) = (id, name, profile, mount, flags)
        (self.appleClientIds, self.kakaoAppId, self.appleTeamId, self.appleKeyId) = (appleClientIds, kakaoAppId, appleTeamId, appleKeyId)
        (self.keyHint, self.previousKeyHint, self.previousKeyExpiresAt) = (keyHint, previousKeyHint, previousKeyExpiresAt)
        (self.disabled, self.createdAt) = (disabled, createdAt)
    }
}

/// A Sign in with Apple key (the `.p8` Apple issued, PEM) for code exchanges.
package struct AppleKeyUpload: Codable, Sendable, Equatable {
    package var teamId: String
    package var keyId: String
    package var privateKey: String

    package init(teamId: String, keyId: String, privateKey: String) {
        (self.teamId, self.keyId, self.privateKey) = (teamId, keyId, privateKey)
    }
}

/// `POST /admin/api/apps/{app_id}/settings`: flags and sign-in providers. `appleKey` nil keeps
/// the key the app has.
package struct AppSettingsChange: Codable, Sendable, Equatable {
    package var flags: AppFlags
    package var appleClientIds: [String]
    package var kakaoAppId: String
    package var appleKey: AppleKeyUpload?

    package init(flags: AppFlags, appleClientIds: [String] = [], kakaoAppId: String = "", appleKey: AppleKeyUpload? = nil) {
        (self.flags, self.appleClientIds, self.kakaoAppId, self.appleKey) = (flags, appleClientIds, kakaoAppId, appleKey)
    }
}

/// `POST /admin/api/apps` (owners): a new app, as `auth-svc apps create` registers one.
package struct AppRegistration: Codable, Sendable, Equatable {
    package var name: String
    package var profile: Dialect
    package var mount: String?
    /// A released app's existing key to keep; generated when absent.
    package var key: String?
    package var settings: AppSettingsChange

    package init(name: String, profile: Dialect, mount: String? = nil, key: String? = nil, settings: AppSettingsChange) {
        (self.name, self.profile, self.mount, self.key, self.settings) = (name, profile, mount, key, settings)
    }
}

/// `POST /admin/api/apps/{app_id}/rotate-key`: the old key keeps working `graceSeconds` more
/// (0 to 30 days).
package struct KeyRotation: Codable, Sendable, Equatable {
    package var graceSeconds: Int

    package init(graceSeconds: Int) {
        self.graceSeconds = graceSeconds
    }
}

/// A new app or a rotated key: the key itself, shown this once.
package struct AppKeyIssued: Codable, Sendable, Equatable {
    package var app: AppDetail
    package var key: String

    package init(app: AppDetail, key: String) {
        (self.app, self.key) = (app, key)
    }
}

/// `POST /admin/api/apps/{app_id}/disable` and `…/enable`'s internal form: a disabled app's keys
/// and mount open nothing.
package struct AppDisabling: Codable, Sendable, Equatable {
    package var disabled: Bool

    package init(disabled: Bool) {
        self.disabled = disabled
    }
}

/// gateway ← auth-svc: the app a key opens, and until when that key does (a rotated-out key's
/// grace end; nil: until changed).
package struct ResolvedAppKey: Codable, Sendable, Equatable {
    package var app: AppInfo
    package var validUntil: Int64?

    package init(app: AppInfo, validUntil: Int64? = nil) {
        (self.app, self.validUntil) = (app, validUntil)
    }
}
