import Contracts
import Foundation
import NIOCore
import NIOHTTP1
import ServiceKit
import TestSupport
import XCTest

/// Uploaded files in an S3-compatible bucket (issue 38), through the gateway to real processes:
/// the GLINT/SpotChat uploads (a post's photo, a filter's image, a chat file, a profile image) land in the bucket and
/// nowhere in `DATA_DIR`, and read back byte-identical with `ETag`, `304` and `Range`; market-svc
/// as two replicas with data folders of their own (PostgreSQL shared, no disk shared) serves
/// through one what was uploaded through the other.
final class FilesInBucketTests: XCTestCase {
    static let photo = ModerationThroughGatewayTests.photo

    func testUploadsLandInTheBucketAndReadBackThroughTheGateway() async throws {
        guard let server = try await S3TestServer.start(.rclone) else { throw XCTSkip("rclone is not installed here (scripts/test installs it)") }
        defer { server.stop() }
        let suite = try await AuthAndGateway.start(server.environment, with: [.market, .chat])
        do {
            let alice = try await Self.join(suite, "alice"), bob = try await Self.join(suite, "bob")
            let photo = try await Self.upload(suite, "/v1/posts/files", token: alice.accessToken)
            try await Self.readsBack(suite, photo)
            let filter = try await Self.upload(suite, "/v1/filters/files", token: alice.accessToken)
            try await Self.readsBack(suite, filter)
            let opened = try await suite.call(.POST, "/v1/chats", token: alice.accessToken, json: #"{"opponent_id":"\#(bob.userID)"}"#)
            let room = try JSON.string(try JSON.object(opened.body), "room_id")
            let chatFile = try await Self.upload(suite, "/v1/chats/\(room)/files", token: alice.accessToken)
            try await Self.readsBack(suite, chatFile)
            let profile = MultipartBody(parts: [.file("profile", filename: "me.png", contentType: "image/png", bytes: Self.photo)])
            let changed = try await HTTPProbe.call(
                .PUT, suite.gatewayURL + "/v1/users/me/profile",
                headers: [("SeSACKey", AuthAndGateway.appKey), ("Authorization", alice.accessToken), ("Content-Type", profile.contentType)],
                body: profile.buffer)
            XCTAssertEqual(changed.status, 200, changed.body.text)
            let image = try JSON.string(try JSON.object(changed.body), "profileImage")
            try await Self.readsBack(suite, image)

            var keys: [String] = []
            var next: String?
            repeat {
                let page = try await server.client.list(prefix: "", continuation: next)
                keys += page.objects.map(\.key)
                next = page.next
            } while next != nil
            for (service, path) in [("market-svc", photo), ("market-svc", filter), ("chat-svc", chatFile), ("auth-svc", image)] {
                XCTAssertTrue(
                    keys.contains { $0.hasPrefix(service + "/") && $0.hasSuffix("/" + path.split(separator: "/").last!) }, "\(path) in \(keys)")
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: suite.dataDirectory + "/files"), "no upload in DATA_DIR")
            await suite.stop()
        } catch {
            await suite.stop()
            throw error
        }
    }

    func testTwoMarketReplicasWithNoSharedFolder() async throws {
        guard let server = try await S3TestServer.start(.seaweedfs) else { throw XCTSkip("weed is not installed here (scripts/test installs it)") }
        defer { server.stop() }
        let (pool, databaseURL) = try await TestPostgres.freshDatabase()
        pool.close()
        let ports = [try FreePort.pick(), try FreePort.pick()]
        let suite = try await AuthAndGateway.start(
            server.environment.merging(["MARKET_DATABASE_URL": databaseURL, ServiceName.market.urlVariable: "http://127.0.0.1:\(ports[0])"]) { $1 },
            with: [])
        var replicas: [RunningProcess] = []
        do {
            for port in ports {
                let folder = try TestEnvironment.temporaryDirectory()
                replicas.append(
                    try RunningProcess("market-svc", environment: suite.environment.merging(["PORT": "\(port)", "DATA_DIR": folder]) { $1 }))
            }
            for replica in replicas { _ = try await replica.line(containing: "listening on") }
            // A second gateway sends market-svc's requests to the other replica.
            let gatewayPort = try FreePort.pick()
            let second = try RunningProcess(
                "gateway",
                environment: suite.environment.merging(["PORT": "\(gatewayPort)", ServiceName.market.urlVariable: "http://127.0.0.1:\(ports[1])"]) {
                    $1
                })
            replicas.append(second)
            _ = try await second.line(containing: "listening on")
            let alice = try await Self.join(suite, "alice")
            let photo = try await Self.upload(suite, "/v1/posts/files", token: alice.accessToken)
            try await Self.readsBack(suite.through(gatewayAt: "http://127.0.0.1:\(gatewayPort)"), photo)
            for replica in replicas { await replica.stop() }
            await suite.stop()
        } catch {
            for replica in replicas { await replica.stop() }
            await suite.stop()
            throw error
        }
    }

    /// A deployment that kept its uploads on disk moves them with `glint files migrate --to s3`
    /// (twice: the second run finds them there), then serves them from the bucket alone.
    func testMigratingADeploymentsFilesIntoTheBucket() async throws {
        guard let server = try await S3TestServer.start(.rclone) else { throw XCTSkip("rclone is not installed here (scripts/test installs it)") }
        defer { server.stop() }
        let before = try await AuthAndGateway.start([:], with: [.market])
        let photo: String, stray: String
        do {
            let alice = try await Self.join(before, "alice")
            photo = try await Self.upload(before, "/v1/posts/files", token: alice.accessToken)
            stray = try await Self.upload(before, "/v1/posts/files", token: alice.accessToken)
            let created = try await before.call(
                .POST, "/v1/posts", token: alice.accessToken, json: #"{"category":"walk","title":"사진","content":"","files":["\#(photo)"]}"#)
            XCTAssertEqual(created.status, 200, created.body.text)
            await before.stop()
        } catch {
            await before.stop()
            throw error
        }
        for (run, expected) in [
            (1, "done: copied 1, already there 0, named by no record 1"), (2, "done: copied 0, already there 1, named by no record 1"),
        ] {
            let migrate = try RunningProcess(
                "glint", arguments: ["files", "migrate", "--to", "s3", "--data-dir", before.dataDirectory],
                environment: server.environment.merging(["PATH": "/usr/bin:/bin"]) { $1 })
            let status = try await migrate.exitStatus()
            XCTAssertEqual(status, 0, migrate.transcript)
            XCTAssertTrue(migrate.transcript.contains(expected), "run \(run): \(migrate.transcript)")
            XCTAssertTrue(migrate.transcript.contains("market-svc: 2/2 files"), migrate.transcript)
        }
        // The same records in a new data folder with no files in it: served from the bucket.
        let after = try await AuthAndGateway.start(server.environment, with: [.market]) { folder in
            for item in try FileManager.default.contentsOfDirectory(atPath: before.dataDirectory) where item != "files" {
                try FileManager.default.copyItem(atPath: before.dataDirectory + "/" + item, toPath: folder + "/" + item)
            }
        }
        do {
            try await Self.readsBack(after, photo)
            let missing = try await after.call(.GET, "/v1" + stray)
            XCTAssertEqual(missing.status, 404, "a file no record named stayed on the old disk")
            await after.stop()
        } catch {
            await after.stop()
            throw error
        }
    }

    static func join(_ suite: AuthAndGateway, _ nick: String) async throws -> AuthAnswer {
        let answer = try await suite.call(.POST, "/v1/users/join", json: #"{"email":"\#(nick)@glint.app","password":"pass1234!","nick":"\#(nick)"}"#)
        XCTAssertEqual(answer.status, 200, answer.body.text)
        return try JSONDecoder().decode(AuthAnswer.self, from: answer.body)
    }

    /// One photo uploaded as the apps send it (`files`); its stored path.
    static func upload(_ suite: AuthAndGateway, _ path: String, token: String) async throws -> String {
        let form = MultipartBody(parts: [.file("files", filename: "photo.png", contentType: "image/png", bytes: photo)])
        let answer = try await HTTPProbe.call(
            .POST, suite.gatewayURL + path,
            headers: [("SeSACKey", AuthAndGateway.appKey), ("Authorization", token), ("Content-Type", form.contentType)], body: form.buffer)
        XCTAssertEqual(answer.status, 200, answer.body.text)
        return try XCTUnwrap(try JSON.object(answer.body)["files"] as? [String]).first.orThrow()
    }

    /// The whole, a range and a revalidation through the gateway, with the app key.
    static func readsBack(_ suite: AuthAndGateway, _ stored: String) async throws {
        let path = stored.hasPrefix("/v1") ? stored : "/v1" + stored
        let whole = try await suite.call(.GET, path)
        XCTAssertEqual(whole.status, 200, "\(path): \(whole.body.text)")
        XCTAssertEqual(Array(whole.body.readableBytesView), photo)
        XCTAssertEqual(whole.headers.first(name: "content-type"), "image/png")
        let etag = try XCTUnwrap(whole.headers.first(name: "etag"))
        let part = try await suite.call(.GET, path, headers: [("Range", "bytes=0-9")])
        XCTAssertEqual(part.status, 206)
        XCTAssertEqual(Array(part.body.readableBytesView), Array(photo[0...9]))
        XCTAssertEqual(part.headers.first(name: "content-range"), "bytes 0-9/\(photo.count)")
        let unchanged = try await suite.call(.GET, path, headers: [("If-None-Match", etag)])
        XCTAssertEqual(unchanged.status, 304)
    }
}
