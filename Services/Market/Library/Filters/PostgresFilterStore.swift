import PostgresNIO
import PostgresStorage
import ServiceKit

/// `FilterStore` on PostgreSQL.
struct PostgresFilterStore: FilterStore {
    let pool: PostgresPool
    /// Deleting a filter deletes its comments, which the post cache watches with the rest.
    let postChanges: PostgresChangeCounter

    func insert(_ filter: FilterRecord) async throws {
        try await pool.client.query(try PostgresColumns(filter).insert(into: "filter"), logger: pool.logger)
    }

    func update(_ filter: FilterRecord) async throws {
        try await pool.client.query(try PostgresColumns(filter).update("filter", key: "id"), logger: pool.logger)
    }

    func delete(id: String) async throws {
        let logger = pool.logger
        do {
            try await pool.transaction { connection in
                try FilterRules.checkDeletable(
                    orders: try await connection.count("SELECT 1 FROM purchase_order WHERE filter_id = \(id) LIMIT 1", logger: logger))
                try await connection.query("DELETE FROM filter WHERE id = \(id)", logger: logger)
                try await PostgresCommentStore.deleteComments(connection, of: .filter, id: id, logger: logger)
            }
        } catch let error as PSQLError where error.isForeignKeyViolation {
            // Ordered by another request between the check and the delete.
            try FilterRules.checkDeletable(orders: 1)
        }
        postChanges.bump()
    }

    func filter(id: String, appID: String) async throws -> FilterRecord? {
        try await pool.read { try await Self.filter($0, id: id, appID: appID, logger: pool.logger) }
    }

    func detail(id: String, appID: String, viewer: String) async throws -> (record: FilterRecord, comments: [CommentRecord], stats: FilterStats)? {
        let logger = pool.logger
        return try await pool.read { connection in
            guard let record = try await Self.filter(connection, id: id, appID: appID, logger: logger) else { return nil }
            return (
                record, try await PostgresCommentStore.comments(connection, of: .filter, ids: [id], logger: logger),
                try await Self.stats(connection, ids: [id], viewer: viewer, logger: logger)
            )
        }
    }

    private static func filter(_ connection: PostgresConnection, id: String, appID: String, logger: Logger) async throws -> FilterRecord? {
        try await connection.record(FilterRecord.self, "SELECT * FROM filter WHERE id = \(id) AND app_id = \(appID)", logger: logger)
    }

    func filters(ids: [String], appID: String) async throws -> [FilterRecord] {
        guard !ids.isEmpty else { return [] }
        return try await pool.read {
            try await $0.records(FilterRecord.self, "SELECT * FROM filter WHERE app_id = \(appID) AND id = ANY(\(ids))", logger: pool.logger)
        }
    }

    func page(_ query: FilterPageQuery) async throws -> FilterPage {
        var statement = PostgresStatement()
        var conditions = ["filter.app_id = \(statement.bind(query.appID))"]
        switch query.scope {
        case .all: break
        case .user(let id):
            conditions.append("filter.creator_id = \(statement.bind(id))")
        case .likedByMe:
            conditions.append(
                "EXISTS (SELECT 1 FROM filter_like WHERE filter_like.filter_id = filter.id AND filter_like.user_id = \(statement.bind(query.viewer)))"
            )
        }
        if let category = query.category, !category.isEmpty {
            conditions.append("filter.category = \(statement.bind(category))")
        }
        if !query.hidden.isEmpty {
            conditions.append("NOT filter.creator_id = ANY(\(statement.bind(Array(query.hidden))))")
        }
        if !query.takenDown.isEmpty {
            conditions.append("NOT filter.id = ANY(\(statement.bind(query.takenDown.sorted())))")
        }
        var order = "filter.created_at DESC, filter.seq DESC LIMIT \(statement.bind(query.limit + 1))"
        switch query.order {
        case .latest:
            if let cursor = query.after {
                conditions.append("(filter.created_at, filter.seq) < (\(statement.bind(cursor.createdAt)), \(statement.bind(cursor.sequence)))")
            }
        case .likes:
            order =
                "(SELECT COUNT(*) FROM filter_like WHERE filter_like.filter_id = filter.id) DESC, " + order
                + " OFFSET \(statement.bind(query.offset))"
        case .purchase:
            order =
                "(SELECT COUNT(*) FROM purchase_order WHERE purchase_order.filter_id = filter.id AND purchase_order.paid_at IS NOT NULL) DESC, "
                + order + " OFFSET \(statement.bind(query.offset))"
        }
        let sql = "SELECT filter.* FROM filter WHERE " + conditions.joined(separator: " AND ") + " ORDER BY " + order
        return try await pool.read { connection in
            let rows = try await connection.rows(statement.query(sql), logger: pool.logger) { row in
                let record = try PostgresRecordDecoder.decode(FilterRecord.self, from: row)
                return (record: record, cursor: FeedCursor(createdAt: record.createdAt, sequence: try row.value("seq")))
            }
            return FilterPage(
                rows: rows,
                stats: try await Self.stats(connection, ids: rows.prefix(query.limit).map(\.record.id), viewer: query.viewer, logger: pool.logger))
        }
    }

    func stats(ids: [String], viewer: String) async throws -> FilterStats {
        guard !ids.isEmpty else { return FilterStats() }
        return try await pool.read { try await Self.stats($0, ids: ids, viewer: viewer, logger: pool.logger) }
    }

    private static func stats(_ connection: PostgresConnection, ids: [String], viewer: String, logger: Logger) async throws -> FilterStats {
        var stats = FilterStats()
        guard !ids.isEmpty else { return stats }
        for try await (id, count, mine) in try await connection.query(
            """
            SELECT filter_id, COUNT(*), COUNT(*) FILTER (WHERE user_id = \(viewer)) FROM filter_like WHERE filter_id = ANY(\(ids)) GROUP BY filter_id
            """, logger: logger
        ).decode((String, Int, Int).self) {
            stats.likes[id] = count
            if mine > 0 { stats.liked.insert(id) }
        }
        for try await (id, count, mine) in try await connection.query(
            """
            SELECT filter_id, COUNT(*), COUNT(*) FILTER (WHERE buyer_id = \(viewer)) FROM purchase_order
            WHERE paid_at IS NOT NULL AND filter_id = ANY(\(ids)) GROUP BY filter_id
            """, logger: logger
        ).decode((String, Int, Int).self) {
            stats.buyers[id] = count
            if mine > 0 { stats.bought.insert(id) }
        }
        return stats
    }

    func setLike(filterID: String, userID: String, on: Bool, at time: Int64) async throws {
        if on {
            try await pool.client.query(
                """
                INSERT INTO filter_like (filter_id, user_id, created_at) VALUES (\(filterID), \(userID), \(time)) ON CONFLICT DO NOTHING
                """, logger: pool.logger)
        } else {
            try await pool.client.query("DELETE FROM filter_like WHERE filter_id = \(filterID) AND user_id = \(userID)", logger: pool.logger)
        }
    }

    func hotFilterIDs(appID: String, since: Int64, limit: Int) async throws -> [String] {
        try await pool.read { connection in
            try await connection.values(
                String.self,
                """
                SELECT filter.id FROM filter
                LEFT JOIN (SELECT filter_id, COUNT(*) AS n FROM filter_like WHERE created_at >= \(since) GROUP BY filter_id) likes ON likes.filter_id = filter.id
                LEFT JOIN (SELECT filter_id, COUNT(*) AS n FROM purchase_order WHERE paid_at >= \(since) GROUP BY filter_id) sales ON sales.filter_id = filter.id
                WHERE filter.app_id = \(appID)
                ORDER BY COALESCE(likes.n, 0) + 2 * COALESCE(sales.n, 0) DESC, filter.created_at DESC
                LIMIT \(limit)
                """, logger: pool.logger)
        }
    }
}
