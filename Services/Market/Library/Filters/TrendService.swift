import Contracts
import Foundation
import GRDB
import ServiceKit

/// Hot-trend, today's filter and today's author. The rankings are computed per app at most once
/// per refresh interval (one caller computes, the others wait for it), never per request; only
/// the caller-specific parts (is_liked) are added per request.
actor TrendService {
    struct Ranking {
        var filterIDs: [String]
        var computedAt: ContinuousClock.Instant
    }

    private let database: any DatabaseWriter
    private let refresh: Duration
    private var rankings: [String: Ranking] = [:]
    private var computing: [String: Task<Ranking, any Error>] = [:]

    init(database: any DatabaseWriter, refresh: Duration) {
        self.database = database
        self.refresh = refresh
    }

    /// Filters ranked by likes and paid purchases of the last 7 days (a purchase counts double),
    /// newest first among equals; 20 at most.
    func hotFilterIDs(appID: String) async throws -> [String] {
        if let ranking = rankings[appID], ContinuousClock.now - ranking.computedAt < refresh { return ranking.filterIDs }
        if let running = computing[appID] { return try await running.value.filterIDs }
        let database = self.database
        let task = Task { try await Self.compute(database, appID: appID) }
        computing[appID] = task
        defer { computing[appID] = nil }
        let ranking = try await task.value
        rankings[appID] = ranking
        return ranking.filterIDs
    }

    private static func compute(_ database: any DatabaseWriter, appID: String) async throws -> Ranking {
        let since = GlintDate.nowMilliseconds() - 7 * 86_400_000
        let ids = try await database.read { db in
            try String.fetchAll(db, sql: """
                SELECT filter.id FROM filter
                LEFT JOIN (SELECT filter_id, COUNT(*) AS n FROM filter_like WHERE created_at >= ? GROUP BY filter_id) likes ON likes.filter_id = filter.id
                LEFT JOIN (SELECT filter_id, COUNT(*) AS n FROM purchase_order WHERE paid_at >= ? GROUP BY filter_id) sales ON sales.filter_id = filter.id
                WHERE filter.app_id = ?
                ORDER BY COALESCE(likes.n, 0) + 2 * COALESCE(sales.n, 0) DESC, filter.created_at DESC
                LIMIT 20
                """, arguments: [since, since, appID])
        }
        return Ranking(filterIDs: ids, computedAt: .now)
    }
}
