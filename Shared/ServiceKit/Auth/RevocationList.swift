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

    /// Why a verified token is refused, if it is: its user banned (`banned`), or signed out
    /// everywhere after it was issued (`tokenInvalid`). One lock per request, none of the work
    /// while nobody is banned or signed out.
    package func refusal(of user: AuthenticatedUser) -> ErrorCode? {
        let (ban, cutoff) = state.withLock { state -> (Date??, Date?) in
            guard !state.bans.isEmpty || !state.cutoffs.isEmpty else { return (nil, nil) }
            let key = Key(appID: user.appID, userID: user.userID)
            return (state.bans[key], state.cutoffs[key])
        }
        if let ban, ban.map({ $0 > now() }) ?? true { return .banned }
        // Tokens carry whole seconds: one issued in the second of the sign-out, before it, passes.
        if let cutoff, user.issuedAt < cutoff.addingTimeInterval(-1) { return .tokenInvalid }
        return nil
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
