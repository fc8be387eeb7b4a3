import ServiceKit
import TestSupport
import XCTest

@testable import PaymentVerifyService

/// Both engines' migrations give the same tables, columns, nullability, defaults and indexes.
final class SchemaParityTests: XCTestCase {
    /// Where the engines differ on purpose.
    static let meant: Set<String> = []

    func testBothEnginesMigrateToOneSchema() async throws {
        let differences = try await SchemaShape.differences(
            sqlite: PaymentMigrations.migrator, postgres: PaymentPostgresMigrations.all, ignoring: Self.meant)
        XCTAssertEqual(differences, [], differences.joined(separator: "\n"))
    }
}
