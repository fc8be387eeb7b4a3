import Foundation
import PostgresNIO
import PostgresStorage
import ServiceKit
import XCTest

/// The test run's PostgreSQL: `scripts/test` starts a throwaway cluster and names it in
/// `GLINT_TEST_POSTGRES_URL`.
package enum TestPostgres {
    /// The run's clusters: the one every test uses, and a second, fresh one a restore drill loads
    /// into (`GLINT_TEST_POSTGRES_RESTORE_URL`; the first where a run has only one).
    package enum Cluster: Sendable {
        case main
        case restore
    }

    /// A new, empty database of one of the run's clusters, open; a skip with the reason where the
    /// run has no PostgreSQL (it could not be installed).
    package static func freshDatabase(
        maximumConnections: Int = 10, on cluster: Cluster = .main
    ) async throws -> (
        database: PostgresPool, url: String
    ) {
        let environment = ProcessInfo.processInfo.environment
        let restore = cluster == .restore ? environment["GLINT_TEST_POSTGRES_RESTORE_URL"].flatMap { $0.isEmpty ? nil : $0 } : nil
        guard let admin = restore ?? environment["GLINT_TEST_POSTGRES_URL"], !admin.isEmpty,
            var url = URLComponents(string: admin)
        else { throw XCTSkip("no PostgreSQL in this run: scripts/test starts Debian's postgresql where it is installed") }
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let server = try PostgresPool(url: admin, logger: TestEnvironment.logger, maximumConnections: 1)
        defer { server.close() }
        try await server.client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: server.logger)
        TestScratch.run.keep(database: name, on: admin)
        url.path = "/" + name
        let text = try XCTUnwrap(url.string)
        return (try PostgresPool(url: text, logger: TestEnvironment.logger, maximumConnections: maximumConnections), text)
    }
}
