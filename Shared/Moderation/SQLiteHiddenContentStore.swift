import Contracts
import GRDB

/// `HiddenContentStore` on a service's SQLite file.
package struct SQLiteHiddenContentStore: HiddenContentStore {
    let database: any DatabaseWriter

    package init(database: any DatabaseWriter) {
        self.database = database
    }

    package func hide(_ record: HiddenContentRecord) async throws {
        try await database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO hidden_content (app_id, kind, content_id, operator_id, reason, hidden_at) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (kind, content_id) DO NOTHING
                    """, arguments: [record.appID, record.kind.rawValue, record.contentID, record.operatorID, record.reason, record.hiddenAt])
        }
    }

    package func restore(kind: ContentKind, contentID: String, appID: String) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                sql: "DELETE FROM hidden_content WHERE kind = ? AND content_id = ? AND app_id = ?", arguments: [kind.rawValue, contentID, appID])
            return db.changesCount > 0
        }
    }

    package func record(kind: ContentKind, contentID: String, appID: String) async throws -> HiddenContentRecord? {
        try await database.read { db in
            try HiddenContentRecord.fetchOne(
                db, sql: "SELECT * FROM hidden_content WHERE kind = ? AND content_id = ? AND app_id = ?",
                arguments: [kind.rawValue, contentID, appID])
        }
    }

    package func ids(kind: ContentKind, appID: String) async throws -> Set<String> {
        try await database.read { db in
            Set(
                try String.fetchAll(
                    db, sql: "SELECT content_id FROM hidden_content WHERE app_id = ? AND kind = ?", arguments: [appID, kind.rawValue]))
        }
    }
}
