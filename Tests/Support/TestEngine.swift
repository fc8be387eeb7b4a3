import Foundation
import PostgresStorage
import ServiceKit

/// Which engine a run's service stores use: SQLite, or PostgreSQL when `GLINT_TEST_ENGINE` is
/// `postgres` (scripts/test runs the ported services' tests once more that way).
package enum TestEngine {
    package static var isPostgres: Bool { ProcessInfo.processInfo.environment["GLINT_TEST_ENGINE"] == "postgres" }

    /// The run's engine for one service: `sqlite` on a file of its own, or `postgres` handed a
    /// fresh database of the run's cluster to migrate.
    package static func open<Engine>(
        sqlite: () throws -> Engine, postgres: (PostgresPool) async throws -> Engine
    ) async throws -> Engine {
        guard isPostgres else { return try sqlite() }
        return try await postgres(try await TestPostgres.freshDatabase().database)
    }
}
