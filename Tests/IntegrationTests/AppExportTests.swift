import Backup
import Contracts
import Foundation
import GRDB
import Launcher
import Logging
import ServiceKit
import Simulators
import TestSupport
import XCTest
import ZlibCoding

/// `glint app export` and `glint app import` (issue 37): two apps of one deployment (GLINT's
/// filters, payments, posts and chats; DogWalk's located posts and walks) each exported alone,
/// imported into a fresh deployment on SQLite and into one on PostgreSQL, where the apps'
/// replays read what was written, signed in with the old passwords. The export holds only its
/// app's records; an import over records of the app, or of a changed archive, is refused.
final class AppExportTests: XCTestCase {
    static let services: [ServiceName] = [.market, .chat, .geo, .paymentVerify, .push]

    func testTwoAppsMoveToFreshDeploymentsOnEitherEngine() async throws {
        let portOne = try await PortOneSimulator.start()
        let environment = [
            "GEO_BOUNDARIES_FILE": "", "PORTONE_API_URL": portOne.url, "PORTONE_IMP_KEY": PortOneSimulator.key,
            "PORTONE_IMP_SECRET": PortOneSimulator.secret,
        ]
        let exports = try TestEnvironment.temporaryDirectory()
        let (glint, dogWalk) = try await AuthAndGateway.start(environment, with: Self.services) { folder in
            // GLINT under the key the suite's calls send (so the development app is not made), and DogWalk.
            for (name, key) in [("GLINT", AuthAndGateway.appKey), ("DogWalk", DogWalkReplay.key)] {
                let create = try RunningProcess(
                    "auth-svc", arguments: ["apps", "create", "--name", name, "--key", key],
                    environment: ["DATA_DIR": folder, "PATH": "/usr/bin:/bin"])
                let status = try await create.exitStatus()
                XCTAssertEqual(status, 0, create.transcript)
            }
        }.running { source in
            let glint = try await GlintReplay.write(source, portOne: portOne)
            let dogWalk = try await DogWalkReplay.write(source)
            for (app, file) in [("GLINT", "glint"), ("DogWalk", "dogwalk")] {
                let output = try await Self.glint([
                    "app", "export", "--data-dir", source.dataDirectory, "--app", app, "--to", "\(exports)/\(file).tar.gz",
                ])
                XCTAssertTrue(output.contains("exported \(app)"), output)
            }
            return (glint, dogWalk)
        }

        // Each export holds its app alone: GLINT's two users and their devices, not the walker.
        let entries = try TarArchive.decode(try Gzip.decompress(try Data(contentsOf: URL(fileURLWithPath: "\(exports)/glint.tar.gz"))))
        let manifest = try JSONCoding.decoder.decode(AppExportManifest.self, from: try XCTUnwrap(entries.first).bytes)
        func rows(_ service: String, _ table: String) -> Int? {
            manifest.stores.first { $0.service == service }?.tables.first { $0.name == table }?.rows
        }
        XCTAssertEqual(manifest.app.name, "GLINT")
        XCTAssertEqual(rows("auth-svc", "user"), 2)
        XCTAssertEqual(rows("push-svc", "device"), 2)
        XCTAssertEqual(rows("market-svc", "filter"), 1)
        XCTAssertEqual(rows("payment-verify-svc", "payment"), 1)
        XCTAssertEqual(rows("chat-svc", "chat"), 3)
        XCTAssertEqual(rows("geo-svc", "walk"), 0, "DogWalk's walk is DogWalk's")
        XCTAssertEqual(manifest.files.count, 4, "the filter's two images, the post's photo and the chat's")
        XCTAssertEqual(manifest.missingFiles, [])
        let users = String(decoding: try XCTUnwrap(entries.first { $0.name == "records/auth-svc/user.jsonl" }).bytes, as: UTF8.self)
        XCTAssertTrue(users.contains("\"password_hash\":\"$2"), "password hashes travel")
        XCTAssertNil(entries.first { $0.name.contains("session") }, "sessions stay behind")

        // Into a fresh deployment on SQLite: both apps, then the replays' reads.
        try await AuthAndGateway.start(environment, with: Self.services) { folder in
            for file in ["glint", "dogwalk"] {
                let output = try await Self.glint(["app", "import", "--data-dir", folder, "--from", "\(exports)/\(file).tar.gz"])
                XCTAssertTrue(output.contains("imported"), output)
            }
            let again = try await Self.glint(["app", "import", "--data-dir", folder, "--from", "\(exports)/glint.tar.gz"], expecting: 1)
            XCTAssertTrue(again.contains("already holds"), again)
        }.running { target in
            try await GlintReplay.read(target, glint)
            try await DogWalkReplay.read(target, dogWalk)
        }

        // A changed record: refused before anything is written.
        var changed = entries
        let index = try XCTUnwrap(changed.firstIndex { $0.name == "records/market-svc/post.jsonl" })
        changed[index].bytes[changed[index].bytes.count / 2] ^= 0x01
        try Gzip.compress(try TarArchive.encode(changed)).write(to: URL(fileURLWithPath: "\(exports)/changed.tar.gz"))
        let untouched = try TestEnvironment.temporaryDirectory()
        let refused = try await Self.glint(["app", "import", "--data-dir", untouched, "--from", "\(exports)/changed.tar.gz"], expecting: 1)
        XCTAssertTrue(refused.contains("records/market-svc/post.jsonl does not match its checksum"), refused)
        XCTAssertFalse(FileManager.default.fileExists(atPath: untouched + "/files"), "no file written")

        // A store that refuses a record (a post id taken by another app) takes back what the
        // stores loaded before it did; once the clash is gone, the same import goes through.
        let clashing = try TestEnvironment.temporaryDirectory()
        let store = try await ServiceCatalog.openStore(
            for: .market, databaseURL: nil, sqlitePath: clashing + "/market-svc.sqlite", logger: Logger(label: "test"))
        guard case .sqlite(let market) = store else { return XCTFail("market-svc's file") }
        defer { store.close() }
        try await market.write { db in
            try db.execute(
                sql:
                    "INSERT INTO post (id, app_id, creator_id, category, title, content, created_at, updated_at) VALUES (?, 'other', 'x', '', 't', '', 0, 0)",
                arguments: [glint.postID])
        }
        let failed = try await Self.glint(["app", "import", "--data-dir", clashing, "--from", "\(exports)/glint.tar.gz"], expecting: 1)
        XCTAssertTrue(failed.contains("nothing of the app was kept"), failed)
        for (store, table) in [("chat-svc", "room"), ("push-svc", "device"), ("payment-verify-svc", "payment"), ("auth-svc", "app")] {
            let count = try await DatabaseQueue(path: "\(clashing)/\(store).sqlite").read { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)")
            }
            XCTAssertEqual(count, 0, "\(store) kept nothing of the app")
        }
        try await market.write { db in try db.execute(sql: "DELETE FROM post WHERE app_id = 'other'") }
        try await Self.glint(["app", "import", "--data-dir", clashing, "--from", "\(exports)/glint.tar.gz"])

        // Into PostgreSQL (geo-svc stays on its file), DogWalk under a new key: the old one opens nothing.
        guard ProcessInfo.processInfo.environment["GLINT_TEST_POSTGRES_URL"].map({ !$0.isEmpty }) ?? false else { return }
        var databases: [String: String] = [:]
        for variable in ["AUTH", "MARKET", "CHAT", "PAYMENT", "PUSH"] {
            let (pool, url) = try await TestPostgres.freshDatabase(maximumConnections: 1, on: .restore)
            pool.close()
            databases[variable + "_DATABASE_URL"] = url
        }
        var newKey = ""
        try await AuthAndGateway.start(environment.merging(databases) { $1 }, with: Self.services) { folder in
            _ = try await Self.glint(["app", "import", "--data-dir", folder, "--from", "\(exports)/glint.tar.gz"], environment: databases)
            let output = try await Self.glint(
                ["app", "import", "--data-dir", folder, "--from", "\(exports)/dogwalk.tar.gz", "--new-key"], environment: databases)
            newKey = try XCTUnwrap(output.split(separator: "\n").first { $0.hasPrefix("new key: ") }?.dropFirst("new key: ".count).description)
        }.running { target in
            try await GlintReplay.read(target, glint)
            try await DogWalkReplay.read(target, dogWalk, key: newKey)
            let old = try await target.call(.POST, "/v1/users/login", key: DogWalkReplay.key, json: DogWalkReplay.login)
            XCTAssertNotEqual(old.status, 200, "the exported key opens nothing here")
        }
    }

    /// Runs `glint`; its output, after checking how it exited.
    @discardableResult
    static func glint(
        _ arguments: [String], environment: [String: String] = [:], expecting status: Int32 = 0, file: StaticString = #filePath, line: UInt = #line
    ) async throws -> String {
        let process = try RunningProcess("glint", arguments: arguments, environment: environment)
        let exited = try await process.exitStatus(within: .seconds(120))
        XCTAssertEqual(exited, status, process.transcript, file: file, line: line)
        return process.transcript
    }
}
