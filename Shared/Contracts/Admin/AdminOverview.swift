/// The console's overview (issue 36): activity per day from the services that keep it, open
/// reports, payments today, push, and each process's health and request rates.

/// One UTC day's count (`day`: `2026-11-26`).
package struct DailyCount: Codable, Sendable, Equatable {
    package var day: String
    package var count: Int

    package init(day: String, count: Int) {
        (self.day, self.count) = (day, count)
    }

    /// Counts per day number (days since 1970, UTC) → one entry per day of the last `days`,
    /// oldest first, days without any at 0.
    package static func series(_ counts: [Int64: Int], days: Int, today: Int64) -> [DailyCount] {
        (0..<days).reversed().map { back in
            let day = today - Int64(back)
            return DailyCount(day: GlintDate.string(fromMilliseconds: day * 86_400_000).prefix(10).description, count: counts[day] ?? 0)
        }
    }
}

/// admin-svc → a service: its activity over the last `days` (1 to 90) for the caller's app, or
/// every app when the call names none.
package struct ActivityQuery: Codable, Sendable, Equatable {
    package var days: Int

    package init(days: Int) {
        self.days = days
    }

    /// The day number (days since 1970, UTC) of `milliseconds`.
    package static func day(_ milliseconds: Int64) -> Int64 { milliseconds / 86_400_000 }
}

/// auth-svc: accounts, new ones per day, and users with a session opened or refreshed per day.
package struct UserActivity: Codable, Sendable, Equatable {
    package var total: Int
    package var newUsers: [DailyCount]
    package var activeUsers: [DailyCount]

    package init(total: Int, newUsers: [DailyCount], activeUsers: [DailyCount]) {
        (self.total, self.newUsers, self.activeUsers) = (total, newUsers, activeUsers)
    }
}

/// market-svc: posts and book stories written per day.
package struct ContentActivity: Codable, Sendable, Equatable {
    package var posts: [DailyCount]
    package var stories: [DailyCount]

    package init(posts: [DailyCount], stories: [DailyCount]) {
        (self.posts, self.stories) = (posts, stories)
    }
}

/// chat-svc: messages sent per day.
package struct MessageActivity: Codable, Sendable, Equatable {
    package var messages: [DailyCount]

    package init(messages: [DailyCount]) {
        self.messages = messages
    }
}

/// payment-verify-svc: payments verified and refunds recorded since today began (UTC).
package struct PaymentActivity: Codable, Sendable, Equatable {
    package var payments: Int
    package var paidAmount: Int
    package var refunds: Int
    package var refundedAmount: Int

    package init(payments: Int, paidAmount: Int, refunds: Int, refundedAmount: Int) {
        (self.payments, self.paidAmount, self.refunds, self.refundedAmount) = (payments, paidAmount, refunds, refundedAmount)
    }
}

/// A process as admin-svc last read its `/health` and `/metrics`.
package struct ProcessHealth: Codable, Sendable, Equatable {
    package var service: String
    /// `ok`, `failing`, `unreachable`, or for the gateway `degraded` (a service behind it is down).
    package var status: String
    /// Requests and 5xx answers per second over the last minute (nil until two readings).
    package var requestsPerSecond: Double?
    package var errorsPerSecond: Double?
    /// Requests per second between successive readings, oldest first (the last ten minutes).
    package var recent: [Double]

    package init(service: String, status: String, requestsPerSecond: Double?, errorsPerSecond: Double?, recent: [Double]) {
        (self.service, self.status, self.requestsPerSecond, self.errorsPerSecond, self.recent) = (
            service, status, requestsPerSecond, errorsPerSecond, recent
        )
    }
}

/// `GET /admin/api/overview?app=&days=`: one app's (or, for owners without `app`, every app's).
package struct Overview: Codable, Sendable, Equatable {
    package var appId: String?
    package var days: Int
    package var users: UserActivity?
    package var content: ContentActivity?
    package var messages: MessageActivity?
    package var paymentsToday: PaymentActivity?
    package var openReports: Int?
    package var oldestReportAgeSeconds: Int?
    package var push: PushStats?
    package var processes: [ProcessHealth]
    /// How the last backup on admin-svc's machine ended (owners and admins; none run yet: absent).
    package var backup: BackupHealth?
    /// Parts whose service could not be asked.
    package var unavailable: [String]

    package init(
        appId: String?, days: Int, users: UserActivity?, content: ContentActivity?, messages: MessageActivity?, paymentsToday: PaymentActivity?,
        openReports: Int?, oldestReportAgeSeconds: Int?, push: PushStats?, processes: [ProcessHealth], backup: BackupHealth? = nil,
        unavailable: [String]
    ) {
        (self.appId, self.days, self.users, self.content, self.messages) = (appId, days, users, content, messages)
        (self.paymentsToday, self.openReports, self.oldestReportAgeSeconds, self.push) = (paymentsToday, openReports, oldestReportAgeSeconds, push)
        (self.processes, self.backup, self.unavailable) = (processes, backup, unavailable)
    }
}

/// auth-svc → admin-svc: how many targets of the app have open reports, and the oldest open
/// report's age (the overview's count, without the queue itself).
package struct OpenReportsSummary: Codable, Sendable, Equatable {
    package var groups: Int
    package var oldestAgeSeconds: Int?

    package init(groups: Int, oldestAgeSeconds: Int?) {
        (self.groups, self.oldestAgeSeconds) = (groups, oldestAgeSeconds)
    }
}
