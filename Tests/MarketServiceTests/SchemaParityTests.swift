import ServiceKit
import TestSupport
import XCTest

@testable import MarketService

/// Both engines' migrations give the same tables, columns, nullability, defaults and indexes.
final class SchemaParityTests: XCTestCase {
    /// Where the engines differ on purpose.
    static let meant: Set<String> = [
        // A story search's index: SQLite counts matches off its entries (`instr`), a B-tree
        // entry too small on PostgreSQL for a story's text; PostgreSQL's finds them by trigram.
        "story (app_id, is_public, search_text)", "story (app_id, search_text)",
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
