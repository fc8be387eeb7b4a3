import Contracts
import Foundation
import Passwords
import ServiceKit

/// `glint admin add`: a new operator with a one-time password and a TOTP secret, both shown once
/// to whoever runs the command (never logged).
struct OperatorRegistry: Sendable {
    let store: any OperatorStore
    let hasher: PasswordHasher

    struct Added: Sendable {
        var record: OperatorRecord
        var password: String
        var totpURI: String
    }

    func add(email: String, role: OperatorRole, apps: [String]) async throws -> Added {
        let email = email.trimmingCharacters(in: .whitespaces).lowercased()
        guard (3...254).contains(email.utf8.count), email.contains("@"), !email.contains(" ") else {
            throw ServiceError.badRequest("a valid email is required")
        }
        let apps = try Self.apps(apps, role: role)
        let password = Self.randomPassword()
        let totp = TOTP.generate()
        let record = OperatorRecord(
            id: ObjectID.generate(), email: email, passwordHash: try await hasher.hash(password), totpSecret: totp.base32, role: role,
            apps: JSONText.encode(apps), lastTOTPStep: 0, createdAt: GlintDate.nowMilliseconds())
        try await store.insert(record)
        return Added(record: record, password: password, totpURI: totp.uri(account: email))
    }

    /// Changes an operator's role and apps (owners manage operators; the last owner stays one).
    func change(_ id: String, role: OperatorRole, apps: [String]) async throws -> OperatorRecord {
        guard var record = try await store.find(id: id) else { throw ServiceError.notFound("no such operator") }
        if record.role == .owner, role != .owner { try await checkNotLastOwner() }
        (record.role, record.apps) = (role, JSONText.encode(try Self.apps(apps, role: role)))
        guard try await store.update(record) else { throw ServiceError.notFound("no such operator") }
        return record
    }

    /// A new TOTP secret (a lost authenticator): its URI, shown once.
    func resetTOTP(_ id: String) async throws -> (OperatorRecord, String) {
        guard var record = try await store.find(id: id) else { throw ServiceError.notFound("no such operator") }
        let totp = TOTP.generate()
        (record.totpSecret, record.lastTOTPStep) = (totp.base32, 0)
        guard try await store.update(record) else { throw ServiceError.notFound("no such operator") }
        return (record, totp.uri(account: record.email))
    }

    func remove(_ id: String) async throws -> OperatorRecord {
        guard let record = try await store.find(id: id) else { throw ServiceError.notFound("no such operator") }
        if record.role == .owner { try await checkNotLastOwner() }
        guard try await store.delete(id: id) else { throw ServiceError.notFound("no such operator") }
        return record
    }

    private func checkNotLastOwner() async throws {
        guard try await store.all().filter({ $0.role == .owner }).count > 1 else {
            throw ServiceError(.conflict, "the last owner stays an owner")
        }
    }

    private static func apps(_ apps: [String], role: OperatorRole) throws -> [String] {
        let apps = apps.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard apps.count <= 100, apps.allSatisfy({ $0.utf8.count <= 64 }) else { throw ServiceError.badRequest("at most 100 app names") }
        if role == .owner, !apps.isEmpty { throw ServiceError.badRequest("an owner covers every app: give no apps") }
        return apps
    }

    /// 20 characters from a 56-letter alphabet without look-alikes (~116 bits).
    static func randomPassword() -> String {
        let alphabet = Array("abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<20).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }
}
