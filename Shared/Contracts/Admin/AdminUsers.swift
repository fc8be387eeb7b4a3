/// admin-svc ↔ auth-svc, and the admin API: the users of an app as operators see them.

/// Users whose id is the text, whose email starts with it or whose nick contains it.
package struct UserSearchQuery: Codable, Sendable, Equatable {
    package var query: String
    package var limit: Int

    package init(query: String, limit: Int = 20) {
        (self.query, self.limit) = (query, limit)
    }
}

package struct OperatorUserSummary: Codable, Sendable, Equatable {
    package var id: String
    package var email: String
    package var nick: String
    package var createdAt: String
    package var banned: Bool

    package init(id: String, email: String, nick: String, createdAt: String, banned: Bool) {
        (self.id, self.email, self.nick, self.createdAt, self.banned) = (id, email, nick, createdAt, banned)
    }
}

/// One of a user's sessions (a login and the refresh tokens that rotate from it).
package struct OperatorSessionSummary: Codable, Sendable, Equatable {
    package var id: String
    package var createdAt: String
    package var revokedAt: String?
    package var revokeReason: String?
    /// Whether the login came with a device token (pushes go to it).
    package var hasDeviceToken: Bool

    package init(id: String, createdAt: String, revokedAt: String?, revokeReason: String?, hasDeviceToken: Bool) {
        (self.id, self.createdAt, self.revokedAt, self.revokeReason, self.hasDeviceToken) = (id, createdAt, revokedAt, revokeReason, hasDeviceToken)
    }
}

/// A report by or against a user.
package struct OperatorReportSummary: Codable, Sendable, Equatable {
    package var id: String
    package var reporterId: String
    package var targetType: String
    package var targetId: String
    package var reason: String
    package var createdAt: String
    package var action: String?

    package init(id: String, reporterId: String, targetType: String, targetId: String, reason: String, createdAt: String, action: String?) {
        (self.id, self.reporterId, self.targetType, self.targetId, self.reason, self.createdAt, self.action) =
            (id, reporterId, targetType, targetId, reason, createdAt, action)
    }
}

/// A user's page: profile, how they sign in, sessions, ban, reports by and against them, and (for
/// owners and admins) their coins.
package struct OperatorUserDetail: Codable, Sendable, Equatable {
    package var user: OperatorUserSummary
    package var provider: String
    package var sessions: [OperatorSessionSummary]
    package var ban: AdminBanAnswer?
    package var reportsBy: [OperatorReportSummary]
    package var reportsAgainst: [OperatorReportSummary]
    package var coins: Int?
    /// Their payments, newest first (owners and admins only).
    package var payments: [PaymentReceipt]?
    /// The devices their sessions registered for pushes (push-svc).
    package var devices: [OperatorDeviceSummary]?

    package init(
        user: OperatorUserSummary, provider: String, sessions: [OperatorSessionSummary], ban: AdminBanAnswer?, reportsBy: [OperatorReportSummary],
        reportsAgainst: [OperatorReportSummary], coins: Int? = nil
    ) {
        (self.user, self.provider, self.sessions, self.ban) = (user, provider, sessions, ban)
        (self.reportsBy, self.reportsAgainst, self.coins) = (reportsBy, reportsAgainst, coins)
    }
}

/// How many sessions a sign-out everywhere ended.
package struct SignOutAnswer: Codable, Sendable, Equatable {
    package var sessions: Int

    package init(sessions: Int) {
        self.sessions = sessions
    }
}

/// A device a user's session registered for pushes; the token is shown by its end only.
package struct OperatorDeviceSummary: Codable, Sendable, Equatable {
    package var platform: String
    package var sessionId: String
    package var tokenEnd: String
    package var updatedAt: String

    package init(platform: String, sessionId: String, tokenEnd: String, updatedAt: String) {
        (self.platform, self.sessionId, self.tokenEnd, self.updatedAt) = (platform, sessionId, tokenEnd, updatedAt)
    }
}
