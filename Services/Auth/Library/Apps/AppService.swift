import Contracts
import Foundation
import ServiceKit

/// The apps registry: registration (by the `apps` command and on a fresh start) and lookups.
struct AppService: Sendable {
    let store: any AppStore
    /// Wakes every process's revocation poll after an app's change (`BanService.announce`), so
    /// gateways forget the keys they resolved at once rather than when their cache expires.
    var announce: @Sendable () async throws -> Void = {}

    /// Registers an app; the key is generated unless given (to keep a released app's key).
    func create(
        name: String, profile: Dialect, flags: AppFlags, key: String? = nil, appleClientIDs: [String] = [], kakaoAppID: String = "",
        mount: String? = nil,
        appleKey: AppleSignInKey? = nil
    ) async throws -> AppRecord {
        let record = try Self.record(
            name: name, profile: profile, flags: flags, key: key, appleClientIDs: appleClientIDs, kakaoAppID: kakaoAppID, mount: mount,
            appleKey: appleKey
        )
        try await store.insert(record)
        return record
    }

    /// Registers the first app: nil when the registry has one already (another replica may have
    /// made it a moment ago).
    func createFirst(name: String, profile: Dialect, flags: AppFlags, key: String?) async throws -> AppRecord? {
        let record = try Self.record(name: name, profile: profile, flags: flags, key: key)
        return try await store.insertFirst(record) ? record : nil
    }

    private static func record(
        name: String, profile: Dialect, flags: AppFlags, key: String?, appleClientIDs: [String] = [], kakaoAppID: String = "", mount: String? = nil,
        appleKey: AppleSignInKey? = nil
    ) throws -> AppRecord {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard (1...64).contains(trimmed.count) else { throw ServiceError.badRequest("app name must be 1-64 characters") }
        if let mount, !AppMountName.isValid(mount) {
            throw ServiceError.badRequest("a mount is 1-32 lowercase letters, digits or '-', and not one of \(AppMountName.reserved.sorted())")
        }
        // Its clients send no key (API.md §9): the mount is how requests name the app.
        if profile == .quotehub, mount == nil { throw ServiceError.badRequest("a quotehub app needs a mount") }
        if let key, !AppKey.isAcceptable(key) { throw ServiceError.badRequest("app key must be 8-128 printable ASCII characters without spaces") }
        let appleKey = try appleKey?.validated()
        var record = AppRecord(
            id: ObjectID.generate(), name: trimmed, apiKey: key ?? AppKey.generate(), profile: profile,
            refreshWithAccessTokenOnly: flags.refreshWithAccessTokenOnly, emptyAuthErrorBodies: flags.emptyAuthErrorBodies,
            socketAuthOptional: flags.socketAuthOptional, createdAt: GlintDate.nowMilliseconds(),
            appleClientIDs: appleClientIDs.joined(separator: ","), kakaoAppID: kakaoAppID, mount: mount
        )
        if let appleKey {
            (record.appleTeamID, record.appleKeyID, record.applePrivateKey) = (appleKey.teamID, appleKey.keyID, appleKey.privateKeyPEM)
        }
        return record
    }

    /// The app a key opens now, and until when a rotated-out key still does.
    func resolve(key: String) async throws -> ResolvedAppKey? {
        guard let app = try await store.app(key: key, at: GlintDate.nowMilliseconds()) else { return nil }
        return ResolvedAppKey(app: app.info, validUntil: app.apiKey == key ? nil : app.previousKeyExpiresAt)
    }

    /// The app mounted there, unless disabled.
    func find(mount: String) async throws -> AppRecord? {
        try await store.app(mount: mount).flatMap { $0.disabledAt == nil ? $0 : nil }
    }

    /// An operator's registration (admin-svc): as the `apps` command's, with its settings.
    func register(_ registration: AppRegistration) async throws -> AppKeyIssued {
        let settings = registration.settings
        let app = try await create(
            name: registration.name, profile: registration.profile, flags: settings.flags, key: registration.key,
            appleClientIDs: try Self.audiences(settings.appleClientIds), kakaoAppID: try Self.kakaoAppID(settings.kakaoAppId),
            mount: registration.mount, appleKey: settings.appleKey.map(Self.appleKey))
        // A released app's key may be remembered as unknown for a few seconds: forget that too.
        try await announce()
        return AppKeyIssued(app: app.detail, key: app.apiKey)
    }

    /// New flags and sign-in providers; a new Apple key replaces the one kept, none keeps it.
    func change(_ id: String, _ change: AppSettingsChange) async throws -> AppDetail {
        guard var app = try await store.app(id: id) else { throw ServiceError.notFound("unknown app") }
        (app.refreshWithAccessTokenOnly, app.emptyAuthErrorBodies, app.socketAuthOptional) = (
            change.flags.refreshWithAccessTokenOnly, change.flags.emptyAuthErrorBodies, change.flags.socketAuthOptional
        )
        app.appleClientIDs = try Self.audiences(change.appleClientIds).joined(separator: ",")
        app.kakaoAppID = try Self.kakaoAppID(change.kakaoAppId)
        if let upload = change.appleKey {
            let key = try Self.appleKey(upload).validated()
            (app.appleTeamID, app.appleKeyID, app.applePrivateKey) = (key.teamID, key.keyID, key.privateKeyPEM)
        }
        guard try await store.updateSettings(app) else { throw ServiceError.notFound("unknown app") }
        try await announce()
        return app.detail
    }

    /// The longest grace a rotated-out key gets.
    static let maxGraceSeconds = 30 * 86_400

    /// A new key; the current one keeps working `graceSeconds` more.
    func rotateKey(_ id: String, _ rotation: KeyRotation) async throws -> AppKeyIssued {
        guard (0...Self.maxGraceSeconds).contains(rotation.graceSeconds) else {
            throw ServiceError.badRequest("grace_seconds must be 0 to \(Self.maxGraceSeconds)")
        }
        let key = AppKey.generate()
        let graceUntil = GlintDate.nowMilliseconds() + Int64(rotation.graceSeconds) * 1000
        do {
            guard try await store.rotateKey(id: id, newKey: key, graceUntil: graceUntil) else { throw ServiceError.notFound("unknown app") }
        } catch let error as StoreError {
            throw ServiceError(error)
        }
        try await announce()
        guard let app = try await store.app(id: id) else { throw ServiceError.notFound("unknown app") }
        return AppKeyIssued(app: app.detail, key: key)
    }

    func setDisabled(_ id: String, _ disabled: Bool) async throws -> AppDetail {
        guard try await store.setDisabled(id: id, at: disabled ? GlintDate.nowMilliseconds() : nil), let app = try await store.app(id: id) else {
            throw ServiceError.notFound("unknown app")
        }
        try await announce()
        return app.detail
    }

    private static func audiences(_ ids: [String]) throws -> [String] {
        let ids = ids.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard ids.count <= 20, ids.allSatisfy({ $0.utf8.count <= 200 && !$0.contains(",") }) else {
            throw ServiceError.badRequest("at most 20 Apple client ids of at most 200 characters, without commas")
        }
        return ids
    }

    private static func kakaoAppID(_ id: String) throws -> String {
        let id = id.trimmingCharacters(in: .whitespaces)
        guard id.utf8.count <= 32, id.utf8.allSatisfy({ (48...57).contains($0) }) else {
            throw ServiceError.badRequest("a Kakao app id is digits")
        }
        return id
    }

    private static func appleKey(_ upload: AppleKeyUpload) -> AppleSignInKey {
        AppleSignInKey(teamID: upload.teamId, keyID: upload.keyId, privateKeyPEM: upload.privateKey)
    }

    func find(id: String) async throws -> AppRecord? {
        try await store.app(id: id)
    }

    func all() async throws -> [AppRecord] {
        try await store.apps()
    }

    func count() async throws -> Int {
        try await store.count()
    }
}
