import Contracts
import Foundation
import Synchronization

/// The bans in force, as this process last heard them from auth-svc (`RevocationWatcher`).
/// Checked on every verified token, so a lookup is one lock and one hash.
package final class RevocationList: Sendable {
    private struct Key: Hashable {
        var appID, userID: String
    }

    private struct State {
        var revision: Int64 = 0
        var bans: [Key: Date?] = [:]
        var cutoffs: [Key: Date] = [:]
    }

    private let state = Mutex(State())
    private let now: @Sendable () -> Date

    package init(now: @escaping @Sendable () -> Date = Date.init) {
        self.now = now
    }

    package var revision: Int64 { state.withLock { $0.revision } }

    /// Whether the user is banned now (a ban with an `until` in the past has run out).
    package func isBanned(appID: String, userID: String) -> Bool {
        guard let until = state.withLock({ $0.bans[Key(appID: appID, userID: userID)] }) else { return false }
        return until.map { $0 > now() } ?? true
    }

    /// Whether the token was issued before its user was signed out everywhere. Tokens carry whole
    /// seconds: one issued in the second of the sign-out, before it, still passes.
    package func isCutOff(_ user: AuthenticatedUser) -> Bool {
        guard let before = state.withLock({ $0.cutoffs.isEmpty ? nil : $0.cutoffs[Key(appID: user.appID, userID: user.userID)] }) else {
            return false
        }
        return user.issuedAt < before.addingTimeInterval(-1)
    }

    /// Takes a newer snapshot; answers the users banned in it that were not before (whose open
    /// connections must now close). An older or equal revision changes nothing.
    @discardableResult
    package func replace(with snapshot: RevocationSnapshot) -> [RevokedUser] {
        state.withLock { state in
            guard snapshot.revision > state.revision else { return [] }
            let previous = state.bans
            state.revision = snapshot.revision
            state.bans = Dictionary(snapshot.users.map { (Key(appID: $0.appID, userID: $0.userID), $0.until) }, uniquingKeysWith: { $1 })
            state.cutoffs = Dictionary(snapshot.cutoffs.map { (Key(appID: $0.appID, userID: $0.userID), $0.before) }, uniquingKeysWith: max)
            return snapshot.users.filter { previous[Key(appID: $0.appID, userID: $0.userID)] == nil }
        }
    }
}
