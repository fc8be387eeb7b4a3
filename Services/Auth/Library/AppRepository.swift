import Contracts
import Foundation
import GRDB
import ServiceKit

/// The apps registry on auth-svc's database.
struct AppRepository: Sendable {
    let database: any DatabaseWriter

    /// Registers an app; the key is generated unless given (to keep a released app's key).
    func create(
        name: String, profile: Dialect, flags: AppFlags, key: String? = nil, appleClientIDs: [String] = [], kakaoAppID: String = ""
    ) async throws -> AppRecord {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard (1...64).contains(trimmed.count) else { throw ServiceError.badRequest("app name must be 1-64 characters") }
        if let key, !AppKey.isAcceptable(key) { throw ServiceError.badRequest("app key must be 8-128 printable ASCII characters without spaces") }
        let record = AppRecord(
            id: ObjectID.generate(), name: trimmed, apiKey: key ?? AppKey.generate(), profile: profile,
            refreshWithAccessTokenOnly: flags.refreshWithAccessTokenOnly, emptyAuthErrorBodies: flags.emptyAuthErrorBodies,
            socketAuthOptional: flags.socketAuthOptional, createdAt: GlintDate.nowMilliseconds(),
            appleClientIDs: appleClientIDs.joined(separator: ","), kakaoAppID: kakaoAppID
        )
        return try await database.write { db in
            guard try AppRecord.filter(AppRecord.Columns.apiKey == record.apiKey).fetchCount(db) == 0 else {
                throw ServiceError(.conflict, "an app with that key exists")
            }
            try record.insert(db)
            return record
        }
    }

    func find(key: String) async throws -> AppRecord? {
        try await database.read { db in try AppRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM app WHERE api_key = ?"), arguments: [key]) }
    }

    func find(id: String) async throws -> AppRecord? {
        try await database.read { db in try AppRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM app WHERE id = ?"), arguments: [id]) }
    }

    func all() async throws -> [AppRecord] {
        try await database.read { db in try AppRecord.order(AppRecord.Columns.createdAt).fetchAll(db) }
    }

    func count() async throws -> Int {
        try await database.read { db in try AppRecord.fetchCount(db) }
    }
}
