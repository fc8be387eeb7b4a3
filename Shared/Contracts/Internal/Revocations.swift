import Foundation

/// A user an operator banned: refused on every route until `until` (nil: for ever).
package struct RevokedUser: Codable, Sendable, Equatable, Hashable {
    package var appID: String
    package var userID: String
    package var until: Date?

    package init(appID: String, userID: String, until: Date?) {
        (self.appID, self.userID, self.until) = (appID, userID, until)
    }
}

/// A user an operator signed out everywhere: their access tokens issued before `before` are
/// refused (the sessions are revoked too, so no new one comes without signing in).
package struct TokenCutoff: Codable, Sendable, Equatable, Hashable {
    package var appID: String
    package var userID: String
    package var before: Date

    package init(appID: String, userID: String, before: Date) {
        (self.appID, self.userID, self.before) = (appID, userID, before)
    }
}

/// Every ban in force and every recent sign-out, as auth-svc knows them at `revision` (which
/// moves on each ban, unban and sign-out). They are few, so each process holds the whole set
/// and is sent it whole.
package struct RevocationSnapshot: Codable, Sendable, Equatable {
    package var revision: Int64
    package var users: [RevokedUser]
    package var cutoffs: [TokenCutoff]
    /// Moves (with `revision`) when an app's keys, mount or settings change: what a gateway
    /// resolved before is to be asked again (a rotated-out key's grace, a disabled app).
    package var appsRevision: Int64

    package init(revision: Int64, users: [RevokedUser], cutoffs: [TokenCutoff] = [], appsRevision: Int64 = 0) {
        (self.revision, self.users, self.cutoffs, self.appsRevision) = (revision, users, cutoffs, appsRevision)
    }
}

/// A process's long poll: answer at once if the set moved past `after`, else when it does (or
/// after a while, with the same revision).
package struct RevocationPoll: Codable, Sendable, Equatable {
    package var after: Int64

    package init(after: Int64) {
        self.after = after
    }
}

/// admin-svc → auth-svc: ban a user of the caller's app.
package struct BanRequest: Codable, Sendable, Equatable {
    package var reason: String
    package var until: Date?
    /// The operator who decided it (kept with the ban for the user's appeal).
    package var operatorID: String

    package init(reason: String, until: Date?, operatorID: String) {
        (self.reason, self.until, self.operatorID) = (reason, until, operatorID)
    }
}

/// A ban as auth-svc keeps it.
package struct BanState: Codable, Sendable, Equatable {
    package var userID: String
    package var reason: String
    package var until: Date?
    package var operatorID: String
    package var createdAt: Date

    package init(userID: String, reason: String, until: Date?, operatorID: String, createdAt: Date) {
        (self.userID, self.reason, self.until, self.operatorID, self.createdAt) = (userID, reason, until, operatorID, createdAt)
    }
}
