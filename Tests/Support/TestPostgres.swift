import Foundation
import PostgresNIO
import PostgresStorage
import ServiceKit
import XCTest

/// The test run's PostgreSQL: `scripts/test` starts a throwaway cluster and names it in
/// `GLINT_TEST_POSTGRES_URL`.
package enum TestPostgres {
    /// A new, empty database of the run's cluster, open; a skip with the reason where the run has
    /// no PostgreSQL (it could not be installed).
    package static func freshDatabase(maximumConnections: Int = 10) async throws -> (database: PostgresPool, url: String) {
        guard let admin = ProcessInfo.processInfo.environment["GLINT_TEST_POSTGRES_URL"], !admin.isEmpty,
            var url = URLComponents(string: admin)
        else { throw XCTSkip("no PostgreSQL in this run: scripts/test starts Debian's postgresql where it is installed") }
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let server = try PostgresPool(url: admin, logger: TestEnvironment.logger, maximumConnections: 1)
        defer { server.close() }
        try await server.client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: server.logger)
        url.path = "/" + name
        let text = try XCTUnwrap(url.string)
        return (try PostgresPool(url: text, logger: TestEnvironment.logger, maximumConnections: maximumConnections), text)
    }
}
