import Contracts
import Foundation
import ServiceKit

/// The apps registry: registration (by the `apps` command and on a fresh start) and lookups.
struct AppService: Sendable {
    let store: any AppStore

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

    func find(key: String) async throws -> AppRecord? {
        try await store.app(key: key)
    }

    func find(mount: String) async throws -> AppRecord? {
        try await store.app(mount: mount)
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
