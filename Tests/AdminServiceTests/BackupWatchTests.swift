import Backup
import Contracts
import HummingbirdTesting
import Prometheus
import SQLiteStorage
import ServiceKit
import Storage
import TestSupport
import XCTest

@testable import AdminService

/// A failed backup shows in admin-svc's `/health` (which stays 200: the process serves on) and
/// `/metrics`; the console's overview shows it too (`OverviewTests`).
final class BackupWatchTests: XCTestCase {
    func testTheLastRunIsInHealthAndMetrics() async throws {
        let directory = try TestEnvironment.temporaryDirectory()
        try BackupStatusFile.record(in: directory, snapshot: "20261127T040000Z-abc123", error: nil, at: 1_764_216_000_000)
        try BackupStatusFile.record(in: directory, snapshot: nil, error: "disk full", at: 1_764_302_400_000)
        let common = TestEnvironment.common(.admin, dataDirectory: directory)
        let engine = StoreEngine.sqlite(try DatabaseFactory.openPool(at: common.databasePath, migrator: AdminMigrations.migrator))
        let registry = PrometheusCollectorRegistry()
        let watch = BackupWatch(dataDirectory: directory, registry: registry)
        let app = try AdminAssembly.assemble(
            common: common, configuration: AdminConfiguration(), logger: TestEnvironment.logger, engine: engine,
            dependencies: .init(
                auth: .unimplemented, content: .unimplemented, market: .unimplemented, payments: .unimplemented, push: .unimplemented,
                apps: .unimplemented, requests: .unimplemented, activity: .unimplemented,
                monitor: ProcessMonitor(http: .shared, configuration: common, logger: TestEnvironment.logger), backups: watch,
                hasher: .bcrypt(cost: 4)),
            registry: registry
        ).application()
        try await app.test(.router) { client in
            let health = try await client.execute(uri: "/health", method: .get)
            XCTAssertEqual(health.status, .ok)
            let backup = try XCTUnwrap(try JSON.object(health.body)["backup"] as? [String: Any])
            JSON.assertKeys(backup, ["status", "lastRunAt", "lastSnapshot", "lastSuccessAt", "error"])
            XCTAssertEqual(backup["status"] as? String, "failed")
            XCTAssertEqual(backup["error"] as? String, "disk full")
            let metrics = try await client.execute(uri: "/metrics", method: .get).body.text
            XCTAssertTrue(metrics.contains("glint_backup_last_run_failed 1"), metrics)
            XCTAssertTrue(metrics.contains("glint_backup_last_success_timestamp_seconds 1764216000"), metrics)

            try BackupStatusFile.record(in: directory, snapshot: "20261128T040000Z-def456", error: nil, at: 1_764_302_500_000)
            await watch.read()
            let fixed = try await client.execute(uri: "/metrics", method: .get).body.text
            XCTAssertTrue(fixed.contains("glint_backup_last_run_failed 0"), fixed)
            let ok = try JSON.object(try await client.execute(uri: "/health", method: .get).body)["backup"] as? [String: Any]
            XCTAssertEqual(ok?["status"] as? String, "ok")
        }
    }

    /// With snapshots in a bucket the status is read there (a CronJob's runs record it); a bucket
    /// that does not answer shows as a failure, the last success kept.
    func testTheStatusInTheBucketAndABucketThatDoesNotAnswer() async throws {
        guard let server = try await S3TestServer.start(.rclone, bucket: "snapshots") else {
            throw XCTSkip("rclone is not installed here (scripts/test installs it)")
        }
        // As admin-svc reads its bucket: over a client that gives up on a refused connection (with
        // AsyncHTTPClient's default retries the read after the stop waited out the 30 s timeout
        // whenever the pool had already dropped the dead connection).
        let http = HTTPClientService.make(retryConnecting: false)
        defer { Task { try await http.client.shutdown() } }
        let watch = BackupWatch(source: .bucket(server.client(http: http.client)), registry: PrometheusCollectorRegistry())
        await watch.read()
        XCTAssertNil(watch.current, "no run yet")
        let recorded = BackupStatusFile.updated(nil, snapshot: "20261127T040000Z-abc123", error: nil, at: 1_764_216_000_000)
        try await BackupBucket.recordStatus(recorded, in: server.client)
        await watch.read()
        XCTAssertEqual(watch.current, recorded)
        server.stop()
        await watch.read()
        XCTAssertEqual(watch.current?.status, "failed")
        XCTAssertEqual(watch.current?.lastSuccessAt, 1_764_216_000_000)
        XCTAssertTrue(watch.current?.error?.contains("the backup bucket did not answer") ?? false)
    }
}
