import ServiceKit
import TestSupport
import XCTest

@testable import MarketService

/// Both engines' migrations give the same tables, columns, nullability, defaults and indexes.
final class SchemaParityTests: XCTestCase {
    /// Where the engines differ on purpose.
    static let meant: Set<String> = [
        // SQLite counts a story search's matches off this index (`instr` on its entries);
        // PostgreSQL scans the table in parallel, its B-tree entries too small for a story's text.
        "story (app_id, is_public, search_text)"
    ]

    func testBothEnginesMigrateToOneSchema() async throws {
        let differences = try await SchemaShape.differences(
            sqlite: MarketMigrations.migrator, postgres: MarketPostgresMigrations.all, ignoring: Self.meant)
        XCTAssertEqual(differences, [], differences.joined(separator: "\n"))
    }

    /// The test itself, tried: a column added to one engine only is a difference.
    func testAColumnOnOneEngineOnlyIsFound() async throws {
        let differences = try await SchemaShape.differences(
            sqlite: MarketMigrations.migrator, postgres: MarketPostgresMigrations.all, ignoring: Self.meant,
            alteringPostgres: ["ALTER TABLE post ADD COLUMN mood text NOT NULL DEFAULT ''", "CREATE INDEX post_by_mood ON post (mood)"]
        )
        XCTAssertEqual(differences, ["post.mood: only in the second", "post (mood): only in the second"])
    }
}
