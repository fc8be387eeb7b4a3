import Backup
import Contracts
import Foundation
import GRDB
import Launcher
import NIOCore
import ServiceKit
import Synchronization
import TestSupport
import XCTest
import ZlibCoding

/// `glint backup create | list | verify` on a running suite's data folder (issue 37, first
/// part): the snapshot holds every service's store, copied while the services serve, and the
/// uploads, each part with its checksum; the stores' schema levels and row counts are in its
/// manifest; a changed byte is found.
final class BackupTests: XCTestCase {
    func testASnapshotOfARunningSuiteAndACorruptedOne() async throws {
        let suite = try await AuthAndGateway.start([:], with: [.market])
        do {
            let alice = try await FilesInBucketTests.join(suite, "alice")
            let photo = try await FilesInBucketTests.upload(suite, "/v1/posts/files", token: alice.accessToken)
            let created = try await suite.call(
                .POST, "/v1/posts", token: alice.accessToken, json: #"{"category":"walk","title":"백업","content":"","files":["\#(photo)"]}"#)
            XCTAssertEqual(created.status, 200, created.body.text)

            func glint(_ arguments: [String]) async throws -> (Int32, String) {
                let process = try RunningProcess("glint", arguments: ["backup"] + arguments + ["--data-dir", suite.dataDirectory], environment: [:])
                let status = try await process.exitStatus()
                return (status, process.transcript)
            }
            let (created1, output) = try await glint(["create"])
            XCTAssertEqual(created1, 0, output)
            let id = try XCTUnwrap(output.split(separator: "\n").last.map(String.init))
            let (listed, list) = try await glint(["list"])
            XCTAssertEqual(listed, 0)
            XCTAssertTrue(list.contains(id), list)
            let (verified, verdict) = try await glint(["verify", id])
            XCTAssertEqual(verified, 0, verdict)
            XCTAssertTrue(verdict.contains("\(id): ok"))

            let archive = URL(fileURLWithPath: suite.dataDirectory + "/backups/\(id).tar.gz")
            let entries = try TarArchive.decode(try Gzip.decompress(try Data(contentsOf: archive)))
            let manifest = try JSONCoding.decoder.decode(BackupManifest.self, from: try XCTUnwrap(entries.first).bytes)
            let market = try XCTUnwrap(manifest.parts.first { $0.name == "market-svc.sqlite" })
            XCTAssertEqual(market.rowCounts?["post"], 1)
            XCTAssertEqual(market.engine, "sqlite")
            XCTAssertFalse(market.migrations?.isEmpty ?? true, "its schema level")
            let auth = try XCTUnwrap(manifest.parts.first { $0.name == "auth-svc.sqlite" })
            XCTAssertEqual(auth.rowCounts?["user"], 1)
            let file = try XCTUnwrap(manifest.parts.first { $0.name == "files" + photo.dropFirst("/data".count) })
            XCTAssertEqual(entries.first { $0.name == file.name }?.bytes, Data(ModerationThroughGatewayTests.photo))
            XCTAssertGreaterThanOrEqual(market.takenAt, manifest.startedAt)

            // Restored into a fresh folder, the suite started on it reads the same.
            let backups = suite.dataDirectory + "/backups"
            let restored = try await AuthAndGateway.start([:], with: [.market]) { folder in
                _ = try await Backups.restore(id: id, into: .init(dataDirectory: folder), from: .folder(backups))
            }
            _ = try await restored.running { try await Self.signsAliceIn($0, andServes: photo) }
            await XCTAssertThrowsAsync(
                try await Backups.restore(id: id, into: .init(dataDirectory: suite.dataDirectory), from: .folder(backups)), "not into a folder in use"
            )

            // One byte of market-svc's store changed: verify names it and fails.
            var corrupted = entries
            let index = try XCTUnwrap(corrupted.firstIndex { $0.name == "market-svc.sqlite" })
            corrupted[index].bytes[corrupted[index].bytes.count / 2] ^= 0xFF
            try Gzip.compress(try TarArchive.encode(corrupted)).write(to: archive)
            let (refused, problems) = try await glint(["verify", id])
            XCTAssertEqual(refused, 1)
            XCTAssertTrue(problems.contains("market-svc.sqlite: its checksum does not match"), problems)
            // A byte of the compressed archive changed: it no longer reads.
            var damaged = try Data(contentsOf: archive)
            damaged[damaged.count / 2] ^= 0xFF
            try damaged.write(to: archive)
            let (unreadable, why) = try await glint(["verify", id])
            XCTAssertEqual(unreadable, 1, why)
            let fresh = try TestEnvironment.temporaryDirectory()
            await XCTAssertThrowsAsync(
                try await Backups.restore(id: id, into: .init(dataDirectory: fresh), from: .folder(backups)), "a damaged snapshot is refused")
            await suite.stop()
        } catch {
            await suite.stop()
            throw error
        }
    }

    /// On a restored suite: alice signs in with her password and her photo is served, byte for
    /// byte; answers her token.
    static func signsAliceIn(_ suite: AuthAndGateway, andServes photo: String) async throws -> String {
        let login = try await suite.call(.POST, "/v1/users/login", json: #"{"email":"alice@glint.app","password":"pass1234!"}"#)
        XCTAssertEqual(login.status, 200, login.body.text)
        let image = try await suite.call(.GET, "/v1" + photo)
        XCTAssertEqual(Array(image.body.readableBytesView), ModerationThroughGatewayTests.photo)
        return try JSONDecoder().decode(AuthAnswer.self, from: login.body).accessToken
    }

    /// A store migrated by a newer build (a migration this one does not know) is refused.
    /// geo-svc on a volume of its own (Kubernetes): `glint backup create` with `GEO_SVC_URL` and
    /// the internal secret asks it for a copy, which a restore writes into the new folder.
    func testAServiceWhoseFileIsOutOfReachIsAskedForACopy() async throws {
        let geoFolder = try TestEnvironment.temporaryDirectory()
        try await AuthAndGateway.start(["GEO_BOUNDARIES_FILE": ""], with: [.geo], overrides: ["geo-svc": ["DATA_DIR": geoFolder]]).running { suite in
            let walker = try await FilesInBucketTests.join(suite, "walker")
            let walk = try await suite.call(
                .POST, "/v1/walks", token: walker.accessToken,
                json:
                    #"{"points":[{"latitude":37.5665,"longitude":126.978,"timestamp":1732000000},{"latitude":37.5675,"longitude":126.978,"timestamp":1732000080}]}"#
            )
            XCTAssertEqual(walk.status, 200, walk.body.text)
            XCTAssertFalse(FileManager.default.fileExists(atPath: suite.dataDirectory + "/geo-svc.sqlite"), "not in the folder the backup reads")
            let geo = "http://127.0.0.1:\(try XCTUnwrap(suite.ports[.geo]))"
            func create(_ environment: [String: String]) async throws -> (Int32, String) {
                let process = try RunningProcess(
                    "glint", arguments: ["backup", "create", "--data-dir", suite.dataDirectory], environment: environment)
                return (try await process.exitStatus(), process.transcript)
            }
            let (unasked, refusal) = try await create(["GEO_SVC_URL": geo])
            XCTAssertEqual(unasked, 1, refusal)
            XCTAssertTrue(refusal.contains("INTERNAL_SECRET"), refusal)
            let (wrong, forbidden) = try await create(["GEO_SVC_URL": geo, "INTERNAL_SECRET": "not-the-internal-secret"])
            XCTAssertEqual(wrong, 1, forbidden)
            let (status, output) = try await create(["GEO_SVC_URL": geo, "INTERNAL_SECRET": TestEnvironment.internalSecret])
            XCTAssertEqual(status, 0, output)
            XCTAssertTrue(output.contains("geo-svc.sqlite: "), output)
            let id = try XCTUnwrap(output.split(separator: "\n").last.map(String.init))
            let restored = try TestEnvironment.temporaryDirectory()
            _ = try await Backups.restore(id: id, into: .init(dataDirectory: restored), from: .folder(suite.dataDirectory + "/backups"))
            let walks = try await DatabaseQueue(path: restored + "/geo-svc.sqlite").read { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM walk")
            }
            XCTAssertEqual(walks, 1, "the walk came along")
        }
    }

    func testASnapshotFromANewerSchemaIsRefused() async throws {
        let folder = try TestEnvironment.temporaryDirectory()
        let database = try DatabaseQueue(path: folder + "/push-svc.sqlite")
        try await database.write { db in
            try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
            try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('v99-from-a-newer-build')")
        }
        try database.close()
        let store = BackupStore.folder(folder + "/backups")
        let manifest = try await Backups.create(from: .init(dataDirectory: folder), into: store)
        let problems = try await Backups.verify(id: manifest.id, in: store)
        XCTAssertEqual(problems, [])
        let fresh = try TestEnvironment.temporaryDirectory()
        await XCTAssertThrowsAsync(try await Backups.restore(id: manifest.id, into: .init(dataDirectory: fresh), from: store)) {
            XCTAssertTrue("\($0)".contains("v99-from-a-newer-build"), "\($0)")
        }
    }

    /// A schedule takes snapshots while the launcher runs and keeps the newest `BACKUP_KEEP`; a
    /// run that fails is recorded beside the stores, the last success kept.
    func testScheduledSnapshotsAreTakenAndPrunedAndAFailureIsRecorded() async throws {
        let folder = try TestEnvironment.temporaryDirectory()
        let settings = try BackupSettings(reader: ConfigReader(environment: ["BACKUP_SCHEDULE": "every 1s", "BACKUP_KEEP": "2"]))
        let scheduler = BackupScheduler(settings: settings, schedule: try XCTUnwrap(settings.schedule), dataDirectory: folder) { _ in }
        let running = Task { try await scheduler.run() }
        let seen = Mutex<Set<String>>([])
        let three = await HTTPProbe.eventually(within: .seconds(30)) { () -> Bool? in
            let count = seen.withLock { seen in
                if let snapshot = BackupStatusFile.read(in: folder)?.lastSnapshot { seen.insert(snapshot) }
                return seen.count
            }
            return count >= 3 ? true : nil
        }
        running.cancel()
        try await running.value
        XCTAssertEqual(three, true, "three scheduled runs")
        let kept = try await Backups.list(in: .folder(folder + "/backups")).map(\.id)
        XCTAssertEqual(kept.count, 2, "the newest two kept")
        XCTAssertEqual(BackupStatusFile.read(in: folder)?.status, "ok")
        XCTAssertTrue(kept.contains(try XCTUnwrap(BackupStatusFile.read(in: folder)?.lastSnapshot)))

        // A target that cannot be made: the run fails, and says so.
        XCTAssertTrue(FileManager.default.createFile(atPath: folder + "/blocker", contents: Data("x".utf8)))
        let blocked = try BackupSettings(reader: ConfigReader(environment: ["BACKUP_SCHEDULE": "hourly", "BACKUP_DIR": folder + "/blocker/backups"]))
        let lastGood = BackupStatusFile.read(in: folder)
        await BackupScheduler(settings: blocked, schedule: try XCTUnwrap(blocked.schedule), dataDirectory: folder) { _ in }.round()
        let failed = try XCTUnwrap(BackupStatusFile.read(in: folder))
        XCTAssertEqual(failed.status, "failed")
        XCTAssertNotNil(failed.error)
        XCTAssertEqual(failed.lastSuccessAt, lastGood?.lastSuccessAt)
        XCTAssertEqual(failed.lastSnapshot, lastGood?.lastSnapshot)
        XCTAssertThrowsError(try BackupSettings(reader: ConfigReader(environment: ["BACKUP_SCHEDULE": "weekly"])))
    }

    /// Every service's store is in the order, once.
    func testTheOrderOfTheStoresNamesEveryServiceOnce() {
        XCTAssertEqual(ServiceCatalog.backupOrder.count, ServiceName.allCases.count)
        XCTAssertEqual(Set(ServiceCatalog.backupOrder), Set(ServiceName.allCases))
    }

    func testKeepingTheNewestSnapshotsRemovesTheOlderOnes() async throws {
        let folder = try TestEnvironment.temporaryDirectory()
        try await Self.keepingTheNewest(dataDirectory: folder, store: .folder(folder + "/backups"))
    }

    /// Keep-N on a store: the oldest go, an empty keep is refused.
    static func keepingTheNewest(dataDirectory folder: String, store: BackupStore) async throws {
        var taken: [String] = []
        for _ in 0..<4 {
            let manifest = try await Backups.create(from: .init(dataDirectory: folder), into: store)
            taken.append(manifest.id)
            // Snapshots are ordered by their start (milliseconds): each starts in a later one.
            while GlintDate.nowMilliseconds() <= manifest.startedAt {}
        }
        var listed = try await Backups.list(in: store).map(\.id)
        XCTAssertEqual(listed, taken, "oldest first, in the order taken")
        var removed = try await Backups.prune(keep: 2, in: store)
        XCTAssertEqual(removed, Array(taken.prefix(2)))
        listed = try await Backups.list(in: store).map(\.id)
        XCTAssertEqual(listed, Array(taken.suffix(2)))
        removed = try await Backups.prune(keep: 2, in: store)
        XCTAssertEqual(removed, [], "nothing more to remove")
        await XCTAssertThrowsAsync(try await Backups.prune(keep: 0, in: store), "every snapshot gone is never what keep means")
        let count = try await Backups.list(in: store).count
        XCTAssertEqual(count, 2)
    }

    func testTheArchiveFormatReadsBackWhatItWrote() throws {
        let url = URL(fileURLWithPath: try TestEnvironment.temporaryDirectory() + "/a.tar")
        let entries = [
            TarArchive.Entry(name: "manifest.json", bytes: Data("{}".utf8)), TarArchive.Entry(name: "empty", bytes: Data()),
            TarArchive.Entry(name: "files/posts/6740369b3a36e82f532ec7aa.jpg", bytes: Data((0..<1500).map { UInt8($0 % 256) })),
        ]
        try TarArchive.encode(entries).write(to: url)
        XCTAssertEqual(try TarArchive.decode(try Data(contentsOf: url)), entries)
        XCTAssertEqual(try Data(contentsOf: url).count % 512, 0)
        var cut = try Data(contentsOf: url)
        cut = cut.prefix(700)
        try cut.write(to: url)
        XCTAssertThrowsError(try TarArchive.decode(try Data(contentsOf: url)))
    }
}
