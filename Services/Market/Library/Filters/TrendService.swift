import Contracts
import Foundation
import ServiceKit

/// Hot-trend, today's filter and today's author. The rankings are computed per app at most once
/// per refresh interval (one caller computes, the others wait for it), never per request; only
/// the caller-specific parts (is_liked) are added per request.
actor TrendService {
    struct Ranking {
        var filterIDs: [String]
        var computedAt: ContinuousClock.Instant
    }

    private let store: any FilterStore
    private let refresh: Duration
    private var rankings: [String: Ranking] = [:]
    private var computing: [String: Task<Ranking, any Error>] = [:]

    init(store: any FilterStore, refresh: Duration) {
        self.store = store
        self.refresh = refresh
    }

    /// Filters ranked by likes and paid purchases of the last 7 days (a purchase counts double),
    /// newest first among equals; 20 at most.
    func hotFilterIDs(appID: String) async throws -> [String] {
        if let ranking = rankings[appID], ContinuousClock.now - ranking.computedAt < refresh { return ranking.filterIDs }
        if let running = computing[appID] { return try await running.value.filterIDs }
        let store = self.store
        let task = Task { try await Self.compute(store, appID: appID) }
        computing[appID] = task
        defer { computing[appID] = nil }
        let ranking = try await task.value
        rankings[appID] = ranking
        return ranking.filterIDs
    }

    private static func compute(_ store: any FilterStore, appID: String) async throws -> Ranking {
        let ids = try await store.hotFilterIDs(appID: appID, since: GlintDate.nowMilliseconds() - 7 * 86_400_000, limit: 20)
        return Ranking(filterIDs: ids, computedAt: .now)
    }
}
