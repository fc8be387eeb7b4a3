import Foundation
import PostgresNIO
import PostgresStorage
import Synchronization
import XCTest

/// What a test leaves behind — the PostgreSQL databases and the folders it made — removed when the
/// test ends, so that a whole run's disk is one test's, not all of them at once. Kept to the run's
/// end they came to 2.8 GB (most of it PostgreSQL's copies of `template1`, one per database), and a
/// CI machine with a few GB free lost SeaweedFS (it turns its volumes read-only under 1% free) and
/// then its PostgreSQL (a full disk).
package final class TestScratch: NSObject, XCTestObservation, Sendable {
    private struct Kept {
        var databases: [(cluster: String, name: String)] = []
        var folders: [String] = []
    }

    private let kept = Mutex(Kept())

    /// The run's one; it starts watching the tests the first time something is kept.
    package static let run: TestScratch = {
        let scratch = TestScratch()
        XCTestObservationCenter.shared.addTestObserver(scratch)
        return scratch
    }()

    /// A database the running test made on the cluster at `clusterURL` (its administrative URL).
    package func keep(database name: String, on clusterURL: String) {
        kept.withLock { $0.databases.append((clusterURL, name)) }
    }

    package func keep(folder path: String) {
        kept.withLock { $0.folders.append(path) }
    }

    package func testCaseDidFinish(_ testCase: XCTestCase) {
        let left = kept.withLock { kept in
            defer { kept = Kept() }
            return kept
        }
        for folder in left.folders { try? FileManager.default.removeItem(atPath: folder) }
        guard !left.databases.isEmpty else { return }
        // XCTest tells its observers synchronously; the drop waits here, on a thread no
        // connection of ours needs — for a while only: a PostgreSQL gone mid-run would otherwise
        // hold every later test's end for as long as its pool keeps trying to connect.
        let done = DispatchSemaphore(value: 0)
        Task {
            await Self.drop(left.databases)
            done.signal()
        }
        if done.wait(timeout: .now() + .seconds(10)) == .timedOut {
            print("warning: \(testCase.name)'s databases were not dropped within 10 s")
        }
    }

    /// `WITH (FORCE)` ends whatever connection a stopped service's pool still holds.
    private static func drop(_ databases: [(cluster: String, name: String)]) async {
        for cluster in Set(databases.map(\.cluster)) {
            do {
                let server = try PostgresPool(url: cluster, logger: TestEnvironment.logger, maximumConnections: 1)
                defer { server.close() }
                for database in databases where database.cluster == cluster {
                    try await server.client.query(
                        PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(database.name) WITH (FORCE)"), logger: server.logger)
                }
            } catch {
                // Not the test's failure: the run's cluster is thrown away at its end anyway.
                print("warning: a test's databases were not dropped: \(String(reflecting: error))")
            }
        }
    }
}
