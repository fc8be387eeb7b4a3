import ServiceKit
import TestSupport
import XCTest

@testable import PushService

/// Both engines' migrations give the same tables, columns, nullability, defaults and indexes.
final class SchemaParityTests: XCTestCase {
    /// Where the engines differ on purpose.
    static let meant: Set<String> = [
        // Due deliveries: by state on SQLite's one worker; a partial index of the claimable ones
        // on PostgreSQL, where replicas' workers claim with SKIP LOCKED.
        "delivery (state, next_attempt_at)", "delivery (next_attempt_at, id)",
    ]

    func testBothEnginesMigrateToOneSchema() async throws {
        let differences = try await SchemaShape.differences(
            sqlite: PushMigrations.migrator, postgres: PushPostgresMigrations.all, ignoring: Self.meant)
        XCTAssertEqual(differences, [], differences.joined(separator: "\n"))
    }
}
