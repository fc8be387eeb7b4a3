import Contracts
import Crypto
import Foundation
import Passwords
import ServiceKit

/// Operators' sign-in (email, password and a TOTP code accepted once), sessions behind an opaque
/// cookie, and the throttle: five failures of an email or from an address within 15 minutes lock
/// it for the rest of the window, answered exactly as a wrong password is.
struct SignInService: Sendable {
    let operators: any OperatorStore
    let sessions: any SessionStore
    let hasher: PasswordHasher
    let idle: Duration
    var now: @Sendable () -> Date = Date.init

    static let maxFailures = 5
    static let lockWindow: Int64 = 15 * 60 * 1000
    /// A session's last use is written at most this often.
    static let touchInterval: Int64 = 60 * 1000
    /// Checked against when no operator has the email, so that an unknown email costs what a
    /// known one does (a bcrypt hash of a random password, made once per process).
    private static let decoyHash = Bcrypt.hash(OperatorRegistry.randomPassword(), cost: 10)

    struct Opened: Sendable {
        var token: String
        var session: SessionRecord
        var record: OperatorRecord
    }

    func signIn(_ request: OperatorSignIn, address: String) async throws -> Opened {
        let email = request.email.trimmingCharacters(in: .whitespaces).lowercased()
        let failed = ServiceError(.loginFailed, "sign-in failed")
        guard (1...254).contains(email.utf8.count), (1...72).contains(request.password.utf8.count), request.code.utf8.count <= 10 else {
            throw failed
        }
        let time = now()
        let milliseconds = GlintDate.milliseconds(time)
        let keys = ["email:" + email, "address:" + address]
        guard try await sessions.failures(keys: keys, since: milliseconds - Self.lockWindow) < Self.maxFailures else {
            // Locked: not even the right password opens it, and the answer says no more than a wrong one.
            _ = try await hasher.verify(request.password, Self.decoyHash)
            throw failed
        }
        let found = try await operators.find(email: email)
        let passwordMatches = try await hasher.verify(request.password, found?.passwordHash ?? Self.decoyHash)
        guard let record = found, passwordMatches, let totp = TOTP(base32: record.totpSecret),
            let step = totp.matchingStep(request.code, at: time),
            try await operators.accept(step: step, for: record.id)
        else {
            try await sessions.recordFailure(keys: keys, at: milliseconds)
            throw failed
        }
        let token = Self.randomToken()
        let session = SessionRecord(
            tokenHash: Self.hash(token), operatorID: record.id, csrfToken: Self.randomToken(), address: address, createdAt: milliseconds,
            lastSeenAt: milliseconds)
        try await sessions.insert(session)
        return Opened(token: token, session: session, record: record)
    }

    /// The operator of a session token still in use, or nil.
    func session(token: String) async throws -> (SessionRecord, OperatorRecord)? {
        guard (20...128).contains(token.utf8.count) else { return nil }
        let time = GlintDate.milliseconds(now())
        guard
            let session = try await sessions.session(
                tokenHash: Self.hash(token), idleSince: time - Self.milliseconds(idle), now: time, touchAfter: time - Self.touchInterval),
            let record = try await operators.find(id: session.operatorID)
        else { return nil }
        return (session, record)
    }

    /// The operator's own new password (12 to 72 bytes, not the current one), proven by the
    /// current one; every other session of the operator ends.
    func changePassword(_ change: OperatorPasswordChange, session: SessionRecord, record: OperatorRecord) async throws -> OperatorRecord {
        guard (12...72).contains(change.newPassword.utf8.count) else {
            throw ServiceError.badRequest("a new password has 12 to 72 bytes")
        }
        guard change.currentPassword.utf8.count <= 72, try await hasher.verify(change.currentPassword, record.passwordHash) else {
            throw ServiceError(.forbidden, "the current password is wrong")
        }
        guard change.newPassword != change.currentPassword else { throw ServiceError.badRequest("the new password is the current one") }
        var changed = record
        (changed.passwordHash, changed.passwordChangedAt) = (try await hasher.hash(change.newPassword), GlintDate.milliseconds(now()))
        guard try await operators.setPassword(hash: changed.passwordHash, at: changed.passwordChangedAt!, for: record.id) else {
            throw ServiceError(.tokenInvalid, "sign in first")
        }
        _ = try await sessions.deleteAll(operatorID: record.id, except: session.tokenHash)
        return changed
    }

    func signOut(_ session: SessionRecord) async throws {
        try await sessions.delete(tokenHash: session.tokenHash)
    }

    func signOutEverywhere(_ operatorID: String) async throws -> Int {
        try await sessions.deleteAll(operatorID: operatorID, except: nil)
    }

    func expiry(of session: SessionRecord) -> String {
        GlintDate.string(fromMilliseconds: session.lastSeenAt + Self.milliseconds(idle))
    }

    static func hash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// 256 random bits, URL-safe.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Base64URL.encode(bytes)
    }

    static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}
