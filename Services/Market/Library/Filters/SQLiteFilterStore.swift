import Contracts
import GRDB
import SQLiteStorage
import ServiceKit

extension FilterRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "filter"
    /// The columns every read selects, in this order: `init(row:)` reads them by position.
    static let selection = """
        filter.id, filter.app_id, filter.creator_id, filter.category, filter.title, filter.description, filter.price, filter.files, \
        filter.photo_metadata, filter.filter_values, filter.created_at, filter.updated_at
        """

    /// A row of `selection`, by position: by name, GRDB lowercases the name and every column's
    /// for each field of a row read with `fetchAll` (`lowercased` was 7% of market-svc's CPU on
    /// a list's page), and `Codable` adds its decoder.
    init(row: Row) throws {
        self.init(
            id: row[0], appID: row[1], creatorID: row[2], category: row[3], title: row[4], description: row[5], price: row[6], files: row[7],
            photoMetadata: row[8], filterValues: row[9], createdAt: row[10], updatedAt: row[11])
    }
}

/// `FilterStore` on market-svc's SQLite file.
struct SQLiteFilterStore: FilterStore {
    let database: any DatabaseWriter
    /// Lookups by key, on the caller's thread.
    let lookups: SQLiteLookups

    func insert(_ filter: FilterRecord) async throws {
        try await database.write { db in try filter.insert(db) }
    }

    func update(_ filter: FilterRecord) async throws {
        try await database.write { db in try filter.update(db) }
    }

    func delete(id: String) async throws {
        try await database.write { db in
            let sold = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM purchase_order WHERE filter_id = ?", arguments: [id]) ?? 0
            try FilterRules.checkDeletable(orders: sold)
            _ = try FilterRecord.deleteOne(db, key: id)
            try SQLiteCommentStore.deleteComments(db, of: .filter, id: id)
        }
    }

    func filter(id: String, appID: String) async throws -> FilterRecord? {
        try lookups.readNow { db in try Self.filter(db, id: id, appID: appID) }
    }

    func detail(id: String, appID: String, viewer: String) async throws -> (record: FilterRecord, comments: [CommentRecord], stats: FilterStats)? {
        try await database.read { db in
            guard let record = try Self.filter(db, id: id, appID: appID) else { return nil }
            return (record, try SQLiteCommentStore.comments(db, of: .filter, ids: [id]), try Self.stats(db, ids: [id], viewer: viewer))
        }
    }

    private static func filter(_ db: Database, id: String, appID: String) throws -> FilterRecord? {
        try FilterRecord.fetchOne(
            db.cachedStatement(sql: "SELECT \(FilterRecord.selection) FROM filter WHERE id = ? AND app_id = ?"), arguments: [id, appID])
    }

    func filters(ids: [String], appID: String) async throws -> [FilterRecord] {
        guard !ids.isEmpty else { return [] }
        return try await database.read { db in
            try FilterRecord.fetchAll(
                // `+app_id`: the ids' lookups, not a walk of the app's feed index (see `SQLitePostStore`).
                db.cachedStatement(sql: "SELECT \(FilterRecord.selection) FROM filter WHERE id IN (SELECT value FROM json_each(?)) AND +app_id = ?"),
                arguments: [JSONText.encode(ids), appID])
        }
    }

    func page(_ query: FilterPageQuery) async throws -> FilterPage {
        var conditions = ["filter.app_id = ?"]
        var arguments: StatementArguments = [query.appID]
        switch query.scope {
        case .all: break
        case .user(let id):
            conditions.append("filter.creator_id = ?")
            arguments += [id]
        case .likedByMe:
            conditions.append("EXISTS (SELECT 1 FROM filter_like WHERE filter_like.filter_id = filter.id AND filter_like.user_id = ?)")
            arguments += [query.viewer]
        }
        if let category = query.category, !category.isEmpty {
            conditions.append("filter.category = ?")
            arguments += [category]
        }
        if !query.hidden.isEmpty {
            conditions.append("filter.creator_id NOT IN (SELECT value FROM json_each(?))")
            arguments += [JSONText.encode(query.hidden.sorted())]
        }
        if !query.takenDown.isEmpty {
            conditions.append("filter.id NOT IN (SELECT value FROM json_each(?))")
            arguments += [JSONText.encode(query.takenDown.sorted())]
        }
        var order = "filter.created_at DESC, filter.rowid DESC LIMIT ?"
        switch query.order {
        case .latest:
            if let cursor = query.after {
                conditions.append("(filter.created_at < ? OR (filter.created_at = ? AND filter.rowid < ?))")
                arguments += [cursor.createdAt, cursor.createdAt, cursor.sequence]
            }
        case .likes:
            order = "(SELECT COUNT(*) FROM filter_like WHERE filter_like.filter_id = filter.id) DESC, " + order + " OFFSET \(query.offset)"
        case .purchase:
            order =
                "(SELECT COUNT(*) FROM purchase_order WHERE purchase_order.filter_id = filter.id AND purchase_order.paid_at IS NOT NULL) DESC, "
                + order + " OFFSET \(query.offset)"
        }
        let sql =
            "SELECT \(FilterRecord.selection), filter.rowid AS sequence FROM filter WHERE " + conditions.joined(separator: " AND ") + " ORDER BY "
            + order
        arguments += [query.limit + 1]
        return try await database.read { [sql, arguments] db in
            let rows = try Row.decodeAll(db.makeStatement(sql: sql), arguments: arguments) { row in
                let record = try FilterRecord(row: row)
                return (record: record, cursor: FeedCursor(createdAt: record.createdAt, sequence: row[12]))
            }
            return FilterPage(rows: rows, stats: try Self.stats(db, ids: rows.prefix(query.limit).map(\.record.id), viewer: query.viewer))
        }
    }

    func stats(ids: [String], viewer: String) async throws -> FilterStats {
        guard !ids.isEmpty else { return FilterStats() }
        return try await database.read { db in try Self.stats(db, ids: ids, viewer: viewer) }
    }

    /// The ids as one JSON argument: the statements' text stays the same whatever their number, so
    /// they are prepared once per connection (and GRDB's `StatementArguments` of a `[String]` builds
    /// a key path at run time on every call: 4% of market-svc's CPU on the filter's page).
    private static func stats(_ db: Database, ids: [String], viewer: String) throws -> FilterStats {
        var stats = FilterStats()
        guard !ids.isEmpty else { return stats }
        let arguments: StatementArguments = [viewer, JSONText.encode(ids)]
        for row in try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT filter_id, COUNT(*) AS n, SUM(user_id = ?) AS mine FROM filter_like
                    WHERE filter_id IN (SELECT value FROM json_each(?)) GROUP BY filter_id
                    """), arguments: arguments)
        {
            stats.likes[row[0]] = row[1]
            if (row[2] as Int) > 0 { stats.liked.insert(row[0]) }
        }
        for row in try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT filter_id, COUNT(*) AS n, SUM(buyer_id = ?) AS mine FROM purchase_order
                    WHERE paid_at IS NOT NULL AND filter_id IN (SELECT value FROM json_each(?)) GROUP BY filter_id
                    """), arguments: arguments)
        {
            stats.buyers[row[0]] = row[1]
            if (row[2] as Int) > 0 { stats.bought.insert(row[0]) }
        }
        return stats
    }

    func setLike(filterID: String, userID: String, on: Bool, at time: Int64) async throws {
        try await database.write { db in
            if on {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO filter_like (filter_id, user_id, created_at) VALUES (?, ?, ?)", arguments: [filterID, userID, time])
            } else {
                try db.execute(sql: "DELETE FROM filter_like WHERE filter_id = ? AND user_id = ?", arguments: [filterID, userID])
            }
        }
    }

    func hotFilterIDs(appID: String, since: Int64, limit: Int) async throws -> [String] {
        try await database.read { db in
            try String.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT filter.id FROM filter
                        LEFT JOIN (SELECT filter_id, COUNT(*) AS n FROM filter_like WHERE created_at >= ? GROUP BY filter_id) likes ON likes.filter_id = filter.id
                        LEFT JOIN (SELECT filter_id, COUNT(*) AS n FROM purchase_order WHERE paid_at >= ? GROUP BY filter_id) sales ON sales.filter_id = filter.id
                        WHERE filter.app_id = ?
                        ORDER BY COALESCE(likes.n, 0) + 2 * COALESCE(sales.n, 0) DESC, filter.created_at DESC
                        LIMIT ?
                        """), arguments: [since, since, appID, limit])
        }
    }
}
