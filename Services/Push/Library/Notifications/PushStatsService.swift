import Contracts
import ServiceKit

/// Push as operators see it (admin-svc): an app's deliveries per provider over a window, its
/// latest failures (tokens by their last characters), and a test notification to one user.
struct PushStatsService: Sendable {
    let store: any NotificationStore
    let notifications: NotificationService

    func stats(appID: String, hours: Int) async throws -> PushStats {
        guard (1...720).contains(hours) else { throw ServiceError.badRequest("hours must be 1 to 720") }
        let since = GlintDate.nowMilliseconds() - Int64(hours) * 3_600_000
        let (made, counts) = try await store.deliveryCounts(appID: appID, since: since)
        let providers = Dictionary(grouping: counts, by: \.platform).map { platform, rows in
            func count(_ states: Set<String>) -> Int { rows.filter { states.contains($0.state) }.map(\.count).reduce(0, +) }
            return ProviderDeliveries(
                provider: platform, sent: count(["sent"]), failed: count(["failed"]), dead: count(["dead"]), pending: count(["pending", "sending"]))
        }
        let failures = try await store.recentFailures(appID: appID, limit: 20).map { failure in
            DeliveryFailure(
                at: GlintDate.string(fromMilliseconds: failure.finishedAt), provider: failure.platform, state: failure.state,
                error: String(failure.error.prefix(300)), targetEnd: String(failure.target.suffix(6)))
        }
        return PushStats(
            since: GlintDate.string(fromMilliseconds: since), notifications: made, providers: providers.sorted { $0.provider < $1.provider },
            recentFailures: failures)
    }

    /// A notification to the user's devices, as an app's own push would send it.
    func test(userID: String, appID: String, _ request: TestPushRequest) async throws -> TestPushAnswer {
        let message = try PushMessage(title: request.title, body: request.body, data: ["test": "true"]).validated()
        let (id, deliveries) = try await notifications.enqueue(appID: appID, users: [userID], message: message)
        return TestPushAnswer(notificationId: id, deliveries: deliveries)
    }
}
