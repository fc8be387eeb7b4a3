import Contracts
import PostgresStorage

/// `HiddenContentStore` on PostgreSQL (a trigger tells every replica of each change).
package struct PostgresHiddenContentStore: HiddenContentStore {
    let pool: PostgresPool

    package init(pool: PostgresPool) {
        self.pool = pool
    }

    package func hide(_ record: HiddenContentRecord) async throws {
        try await pool.transaction { connection in
            _ = try await connection.query(
                """
                INSERT INTO hidden_content (app_id, kind, content_id, operator_id, reason, hidden_at)
                VALUES (\(record.appID), \(record.kind.rawValue), \(record.contentID), \(record.operatorID), \(record.reason), \(record.hiddenAt))
                ON CONFLICT (kind, content_id) DO NOTHING
                """, logger: pool.logger)
        }
    }

    package func restore(kind: ContentKind, contentID: String, appID: String) async throws -> Bool {
        try await pool.transaction { connection in
            try await connection.value(
                String.self,
                "DELETE FROM hidden_content WHERE kind = \(kind.rawValue) AND content_id = \(contentID) AND app_id = \(appID) RETURNING content_id",
                logger: pool.logger) != nil
        }
    }

    package func record(kind: ContentKind, contentID: String, appID: String) async throws -> HiddenContentRecord? {
        try await pool.read {
            try await $0.record(
                HiddenContentRecord.self,
                "SELECT * FROM hidden_content WHERE kind = \(kind.rawValue) AND content_id = \(contentID) AND app_id = \(appID)", logger: pool.logger)
        }
    }

    package func ids(kind: ContentKind, appID: String) async throws -> Set<String> {
        try await pool.read {
            Set(
                try await $0.values(
                    String.self, "SELECT content_id FROM hidden_content WHERE app_id = \(appID) AND kind = \(kind.rawValue)", logger: pool.logger))
        }
    }
}
