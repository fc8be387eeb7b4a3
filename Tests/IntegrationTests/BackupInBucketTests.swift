import Backup
import Contracts
import FileStorage
import Foundation
import Launcher
import NIOCore
import TestSupport
import XCTest
import ZlibCoding

/// Snapshots kept in an S3-compatible bucket (`BACKUP_S3_URL`; rclone's server, which checks
/// every signature): `glint backup create | list | verify | restore` through it, nothing left in
/// the data folder, keep-N there, and a changed object found.
final class BackupInBucketTests: XCTestCase {
    func testSnapshotsGoToTheBucketAndComeBack() async throws {
        guard let server = try await S3TestServer.start(.rclone, bucket: "snapshots") else {
            throw XCTSkip("rclone is not installed here (scripts/test installs it)")
        }
        defer { server.stop() }
        let bucket = [
            "BACKUP_S3_URL": server.url, "BACKUP_S3_ACCESS_KEY_ID": server.accessKeyID, "BACKUP_S3_SECRET_ACCESS_KEY": server.secretAccessKey,
        ]
        func glint(_ arguments: [String]) async throws -> (Int32, String) {
            let process = try RunningProcess("glint", arguments: ["backup"] + arguments, environment: bucket)
            let status = try await process.exitStatus(within: .seconds(60))
            return (status, process.transcript)
        }
        try await AuthAndGateway.start([:], with: [.market]).running { suite in
            let alice = try await FilesInBucketTests.join(suite, "alice")
            let photo = try await FilesInBucketTests.upload(suite, "/v1/posts/files", token: alice.accessToken)

            let (created, output) = try await glint(["create", "--data-dir", suite.dataDirectory])
            XCTAssertEqual(created, 0, output)
            let id = try XCTUnwrap(output.split(separator: "\n").last.map(String.init))
            XCTAssertFalse(FileManager.default.fileExists(atPath: suite.dataDirectory + "/backups"), "nothing kept in the data folder")
            let archive = try await server.client.head("backups/\(id).tar.gz")
            XCTAssertGreaterThan(archive?.size ?? 0, 0)
            let recorded = try await BackupBucket.status(in: server.client)
            XCTAssertEqual(recorded?.status, "ok", "the run's status is kept in the bucket, for admin-svc wherever it runs")
            XCTAssertEqual(recorded?.lastSnapshot, id)
            let (listed, list) = try await glint(["list", "--data-dir", suite.dataDirectory])
            XCTAssertEqual(listed, 0, list)
            XCTAssertTrue(list.contains(id), list)
            let (verified, verdict) = try await glint(["verify", id, "--data-dir", suite.dataDirectory])
            XCTAssertEqual(verified, 0, verdict)

            // Restored from the bucket into a fresh folder: the suite on it signs alice in and has her photo.
            let restored = try await AuthAndGateway.start([:], with: [.market]) { folder in
                let (status, transcript) = try await glint(["restore", id, "--data-dir", folder])
                XCTAssertEqual(status, 0, transcript)
            }
            _ = try await restored.running { try await BackupTests.signsAliceIn($0, andServes: photo) }

            // One byte of the archive in the bucket changed: verify finds it.
            let original = try await Backups.verify(id: id, in: .bucket(server.client))
            XCTAssertEqual(original, [])
            var entries = try TarArchive.decode(try Gzip.decompress(try await Self.object(server.client, "backups/\(id).tar.gz")))
            let index = try XCTUnwrap(entries.firstIndex { $0.name == "auth-svc.sqlite" })
            entries[index].bytes[entries[index].bytes.count / 2] ^= 0xFF
            let changed = try Gzip.compress(try TarArchive.encode(entries))
            try await server.client.put("backups/\(id).tar.gz", ByteBuffer(data: changed), contentType: "application/gzip")
            let (refused, problems) = try await glint(["verify", id, "--data-dir", suite.dataDirectory])
            XCTAssertEqual(refused, 1, problems)
            XCTAssertTrue(problems.contains("auth-svc.sqlite: its checksum does not match"), problems)
            for key in ["backups/\(id).json", "backups/\(id).tar.gz"] { try await server.client.delete(key) }
        }

        // Keep-N in the (now empty) bucket, as in a folder.
        try await BackupTests.keepingTheNewest(dataDirectory: try TestEnvironment.temporaryDirectory(), store: .bucket(server.client))
    }

    static func object(_ client: S3Client, _ key: String) async throws -> Data {
        let response = try await client.get(key)
        XCTAssertEqual(response.status, .ok)
        return Data(buffer: try await response.body.collect(upTo: 64 << 20))
    }
}
