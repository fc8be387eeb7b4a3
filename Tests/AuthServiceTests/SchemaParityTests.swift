import ServiceKit
import TestSupport
import XCTest

@testable import AuthService

/// Both engines' migrations give the same tables, columns, nullability, defaults and indexes.
final class SchemaParityTests: XCTestCase {
    /// Where the engines differ on purpose.
    static let meant: Set<String> = [
        // Refresh tokens of SQLite installations from before generations, read until they expire;
        // PostgreSQL started with generations.
        "refresh_token",
        // Added to a SQLite table that had rows, which needs a default; created with the table on
        // PostgreSQL, where every insert sets them.
        "session.refresh_generation", "session.refresh_expires_at",
    ]

    func testBothEnginesMigrateToOneSchema() async throws {
        let differences = try await SchemaShape.differences(
            sqlite: AuthMigrations.migrator, postgres: AuthPostgresMigrations.all, ignoring: Self.meant,
            renamed: ["app_user": "user"])  // `user` is reserved in PostgreSQL
        XCTAssertEqual(differences, [], differences.joined(separator: "\n"))
    }
}
