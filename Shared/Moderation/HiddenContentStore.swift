import Contracts
import Storage

/// Which content operators hid, in the service that keeps it.
package protocol HiddenContentStore: Sendable {
    /// Hides it; hiding it again keeps the first record.
    func hide(_ record: HiddenContentRecord) async throws
    /// Shows it again; false when it was not hidden.
    func restore(kind: ContentKind, contentID: String, appID: String) async throws -> Bool
    func record(kind: ContentKind, contentID: String, appID: String) async throws -> HiddenContentRecord?
    /// Every hidden id of a kind in an app (few: what operators took down).
    func ids(kind: ContentKind, appID: String) async throws -> Set<String>
}

/// The table on both engines (each service's migrations create it under their own names).
package enum HiddenContentSchema {
    package static let sqlite = """
        CREATE TABLE hidden_content (
            app_id TEXT NOT NULL, kind TEXT NOT NULL, content_id TEXT NOT NULL, operator_id TEXT NOT NULL, reason TEXT NOT NULL,
            hidden_at INTEGER NOT NULL, PRIMARY KEY (kind, content_id))
        """
    package static let postgres = """
        CREATE TABLE hidden_content (
            app_id text NOT NULL, kind text NOT NULL, content_id text NOT NULL, operator_id text NOT NULL, reason text NOT NULL,
            hidden_at bigint NOT NULL, PRIMARY KEY (kind, content_id))
        """
    package static let sqliteIndex = "CREATE INDEX hidden_content_by_app ON hidden_content (app_id, kind)"
    package static let postgresIndex = "CREATE INDEX hidden_content_by_app ON hidden_content (app_id, kind)"
    /// What notifies every replica's cache on PostgreSQL (`PostgresChangeCounter.triggers`).
    package static let channel = "hidden_content_changed"
}

extension StoreEngine {
    /// The service's `hidden_content` on this engine.
    package var hiddenContent: any HiddenContentStore {
        switch self {
        case .sqlite(let database): SQLiteHiddenContentStore(database: database)
        case .postgres(let pool): PostgresHiddenContentStore(pool: pool)
        }
    }
}
