import Contracts
import HummingbirdTesting
import PostgresNIO
import PostgresStorage
import ServiceKit
import TestSupport
import XCTest

@testable import PushService

/// Two push-svc replicas on one PostgreSQL database, their workers claiming from one delivery
/// table at once: every device gets each push once. Needs the run's PostgreSQL whichever engine
/// the run uses.
final class PushReplicaTests: XCTestCase {
    func testWorkersOfTwoReplicasDeliverEachPushOnce() async throws {
        let shared = try await TestPostgres.freshDatabase()
        try await shared.database.migrate(PushPostgresMigrations.all)
        let a = try await PushHarness.make(engine: .postgres(shared.database))
        let b = try await PushHarness.make(engine: .postgres(try PostgresPool(url: shared.url, logger: TestEnvironment.logger)), fcm: a.fcm)
        let users = (1...200).map { String(format: "%024x", $0) }
        try await a.engine.execute(
            """
            INSERT INTO device (token, app_id, user_id, session_id, platform, updated_at)
            SELECT 'token-' || i, '\(PushHarness.appID)', lpad(to_hex(i), 24, '0'), 's', 'fcm', 0 FROM generate_series(1, 200) i
            """)
        try await a.app.contractTest { replicaA in
            try await b.app.contractTest { replicaB in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for (n, (client, harness)) in [(replicaA, a), (replicaB, b)].enumerated() {
                        group.addTask {
                            let response = try await client.execute(
                                uri: "/v1/notifications/push/group", method: .post, headers: try await harness.headers(),
                                body: JSONCoding.encode(PushRequest(userIDs: users, title: "push \(n)", body: "b")))
                            XCTAssertEqual(response.status, .ok, response.body.text)
                        }
                    }
                    try await group.waitForAll()
                }
                let settled = await HTTPProbe.eventually(within: .seconds(30)) { () -> Bool? in
                    (try? await a.deliveries("sent")) == 400 ? true : nil
                }
                XCTAssertNotNil(settled, "both pushes sent to every device")
                // Every delivery is settled: what the simulator has is all it will get.
                let received = a.fcm.received
                XCTAssertEqual(received.count, 400, "no delivery sent twice")
                let perToken = Dictionary(grouping: received) { $0.token ?? "" }.mapValues { Set($0.compactMap(\.title)) }
                XCTAssertEqual(perToken.count, 200)
                XCTAssertTrue(perToken.values.allSatisfy { $0 == ["push 0", "push 1"] }, "each device got each push")
            }
        }
    }
}
