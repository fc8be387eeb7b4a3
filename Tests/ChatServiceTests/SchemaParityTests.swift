import ServiceKit
import TestSupport
import XCTest

@testable import ChatService

/// Both engines' migrations give the same tables, columns, nullability, defaults and indexes.
final class SchemaParityTests: XCTestCase {
    /// Where the engines differ on purpose.
    static let meant: Set<String> = [
        // Search: SQLite's FTS5 table and its shadow tables; PostgreSQL's trigram index.
        "chat_fts", "chat_fts_config", "chat_fts_data", "chat_fts_docsize", "chat_fts_idx", "chat (room_id, content)",
        // Replicas share PostgreSQL only: frames for the others' sockets, who is present where.
        "live_frame", "presence", "replica",
    ]

    func testBothEnginesMigrateToOneSchema() async throws {
        let differences = try await SchemaShape.differences(
            sqlite: ChatMigrations.migrator, postgres: ChatPostgresMigrations.all, ignoring: Self.meant,
            rowid: ["seq", "joined"])
        XCTAssertEqual(differences, [], differences.joined(separator: "\n"))
    }
}
