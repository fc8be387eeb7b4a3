import Backup
import Contracts
import Foundation
import Launcher
import ServiceKit
import TestSupport
import XCTest
import ZlibCoding

/// A restore drill on PostgreSQL (issue 37): auth-svc and market-svc keep their stores there;
/// `glint backup create` dumps each database (`pg_dump`, in a snapshot a transaction of ours
/// exports, where the manifest's counts are read too) beside the uploaded files; restored into
/// fresh, empty databases of a second cluster (`scripts/test` starts one) and a fresh folder, a
/// suite started on them serves the same reads. A database that has tables is refused.
final class BackupOnPostgresTests: XCTestCase {
    func testADumpRestoredIntoFreshDatabasesServesTheSameReads() async throws {
        guard let tools = ProcessInfo.processInfo.environment["GLINT_TEST_PG_BIN"], !tools.isEmpty else {
            throw XCTSkip("no PostgreSQL tools in this run: scripts/test passes Debian's postgresql's")
        }
        func freshDatabase(on cluster: TestPostgres.Cluster = .main) async throws -> String {
            let (pool, url) = try await TestPostgres.freshDatabase(maximumConnections: 1, on: cluster)
            pool.close()
            return url
        }
        let databases = ["AUTH_DATABASE_URL": try await freshDatabase(), "MARKET_DATABASE_URL": try await freshDatabase()]
        func glint(_ arguments: [String], _ environment: [String: String]) async throws -> (Int32, String) {
            let process = try RunningProcess(
                "glint", arguments: ["backup"] + arguments, environment: environment.merging(["BACKUP_PG_BIN": tools]) { $1 })
            let status = try await process.exitStatus(within: .seconds(60))
            return (status, process.transcript)
        }
        try await AuthAndGateway.start(databases, with: [.market]).running { suite in
            let alice = try await FilesInBucketTests.join(suite, "alice")
            let photo = try await FilesInBucketTests.upload(suite, "/v1/posts/files", token: alice.accessToken)
            let created = try await suite.call(
                .POST, "/v1/posts", token: alice.accessToken, json: #"{"category":"walk","title":"복원 훈련","content":"","files":["\#(photo)"]}"#)
            XCTAssertEqual(created.status, 200, created.body.text)
            let post = try JSON.string(try JSON.object(created.body), "post_id")

            let (status, output) = try await glint(["create", "--data-dir", suite.dataDirectory], databases)
            XCTAssertEqual(status, 0, output)
            let id = try XCTUnwrap(output.split(separator: "\n").last.map(String.init))
            let archive = try Data(contentsOf: URL(fileURLWithPath: suite.dataDirectory + "/backups/\(id).tar.gz"))
            let entries = try TarArchive.decode(try Gzip.decompress(archive))
            let manifest = try JSONCoding.decoder.decode(BackupManifest.self, from: try XCTUnwrap(entries.first).bytes)
            let market = try XCTUnwrap(manifest.parts.first { $0.name == "market-svc.pgdump" })
            XCTAssertEqual(market.engine, "postgresql")
            XCTAssertEqual(market.rowCounts?["post"], 1)
            XCTAssertFalse(market.migrations?.isEmpty ?? true, "its schema level")
            XCTAssertNotNil(manifest.parts.first { $0.name == "auth-svc.pgdump" })
            XCTAssertNil(manifest.parts.first { $0.name == "market-svc.sqlite" }, "the store is the database, not a file")
            let (verified, verdict) = try await glint(["verify", id, "--data-dir", suite.dataDirectory], databases)
            XCTAssertEqual(verified, 0, verdict)

            // Into the databases in use: refused, nothing written.
            let into = try TestEnvironment.temporaryDirectory()
            let (refused, why) = try await glint(["restore", id, "--data-dir", into, "--from", suite.dataDirectory + "/backups"], databases)
            XCTAssertEqual(refused, 1, why)
            XCTAssertTrue(why.contains("has tables already"), why)
            XCTAssertFalse(FileManager.default.fileExists(atPath: into + "/files"), "nothing written")

            // Into another cluster, as after losing the first.
            let fresh = ["AUTH_DATABASE_URL": try await freshDatabase(on: .restore), "MARKET_DATABASE_URL": try await freshDatabase(on: .restore)]
            if ProcessInfo.processInfo.environment["GLINT_TEST_POSTGRES_RESTORE_URL"] != nil {
                XCTAssertNotEqual(
                    URLComponents(string: fresh["AUTH_DATABASE_URL"]!)?.port, URLComponents(string: databases["AUTH_DATABASE_URL"]!)?.port)
            }
            let restored = try await AuthAndGateway.start(fresh, with: [.market]) { folder in
                let (status, transcript) = try await glint(["restore", id, "--data-dir", folder, "--from", suite.dataDirectory + "/backups"], fresh)
                XCTAssertEqual(status, 0, transcript)
            }
            try await restored.running { restored in
                let token = try await BackupTests.signsAliceIn(restored, andServes: photo)
                let read = try await restored.call(.GET, "/v1/posts/\(post)", token: token)
                XCTAssertEqual(read.status, 200, read.body.text)
                XCTAssertEqual(try JSON.object(read.body)["title"] as? String, "복원 훈련")
            }
        }
    }
}
