import Contracts
import FileStorage
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import ServiceKit
import TestSupport
import XCTest

@testable import MarketService

/// Uploaded files as the apps read them, whichever store keeps them (issue 38): the same bytes,
/// type, `ETag`, `304`, one `Range`, `HEAD` — from the data folder and from a bucket on a real
/// S3-compatible server, where nothing lands in the data folder; a store that is gone is 503 for
/// uploads and 502 for reads, and `/health` says so.
final class FileServingTests: XCTestCase {
    typealias H = PostContractTests.Harness
    static let alice = PostContractTests.alice
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + (0..<3000).map { UInt8($0 % 200) }

    func testFromTheDataFolder() async throws {
        let harness = try await H.make()
        try await harness.app.contractTest { client in
            let path = try await Self.upload(client, harness)
            try await Self.readsAsTheAppsDo(client, path)
            let name = String(path.split(separator: "/").last!)
            XCTAssertTrue(FileManager.default.fileExists(atPath: harness.dataDirectory + "/files/posts/" + name))
        }
    }

    func testFromABucketOnRclone() async throws {
        try await fromABucket(.rclone)
    }

    func testFromABucketOnSeaweedFS() async throws {
        try await fromABucket(.seaweedfs)
    }

    private func fromABucket(_ kind: S3TestServer.Kind) async throws {
        guard let server = try await S3TestServer.start(kind) else {
            throw XCTSkip("\(kind.rawValue) is not installed here (scripts/test installs it)")
        }
        defer { server.stop() }
        let harness = try await H.make(files: try Self.configuration(server))
        try await harness.app.contractTest { client in
            let path = try await Self.upload(client, harness)
            try await Self.readsAsTheAppsDo(client, path)
            let name = String(path.split(separator: "/").last!)
            let head = try await server.client.head("market-svc/\(PostContractTests.appID)/posts/\(name)")
            XCTAssertEqual(head?.size, Self.jpeg.count, "in the bucket at <service>/<app>/<area>/<name>")
            XCTAssertFalse(FileManager.default.fileExists(atPath: harness.dataDirectory + "/files"), "nothing in the data folder")
            let otherApp = try await client.execute(uri: "/v1" + path, method: .get, headers: TestEnvironment.fields(app: "another-app"))
            XCTAssertEqual(otherApp.status, .notFound, "another app's file does not exist for it")
            let health = try await client.execute(uri: "/health", method: .get)
            XCTAssertEqual(health.status, .ok)

            server.stop()
            let down = await HTTPProbe.eventually(within: .seconds(20)) { () -> TestResponse? in
                let answer = try? await client.execute(uri: "/health", method: .get)
                return answer?.status == .serviceUnavailable ? answer : nil
            }
            XCTAssertNotNil(down, "/health fails while the store is gone")
            let read = try await client.execute(uri: "/v1" + path, method: .get, headers: TestEnvironment.fields(app: PostContractTests.appID))
            XCTAssertEqual(read.status, .badGateway, read.body.text)
            let form = MultipartBody(parts: [.file("files", filename: "a.jpg", contentType: "image/jpeg", bytes: Self.jpeg)])
            let upload = try await client.execute(
                uri: "/v1/posts/files", method: .post, headers: try await harness.headers(Self.alice, [("content-type", form.contentType)]),
                body: form.buffer)
            XCTAssertEqual(upload.status, .serviceUnavailable, upload.body.text)
            XCTAssertEqual(try JSON.string(try JSON.object(upload.body), "code"), "unavailable")
        }
    }

    /// With `FILES_S3_REDIRECT`, a read is a 302 to a presigned URL the store serves.
    func testARedirectToAPresignedURL() async throws {
        guard let server = try await S3TestServer.start(.rclone) else { throw XCTSkip("rclone is not installed here (scripts/test installs it)") }
        defer { server.stop() }
        var environment = server.environment
        environment["FILES_S3_REDIRECT"] = "true"
        let harness = try await H.make(files: try FileStorageConfiguration(reader: ConfigReader(environment: environment)))
        try await harness.app.contractTest { client in
            let path = try await Self.upload(client, harness)
            let answer = try await client.execute(uri: "/v1" + path, method: .get, headers: TestEnvironment.fields(app: PostContractTests.appID))
            XCTAssertEqual(answer.status, .found)
            let location = try XCTUnwrap(answer.headers[.location])
            XCTAssertTrue(location.hasPrefix(server.url + "/market-svc/"), location)
            let fetched = try await HTTPProbe.call(.GET, location)
            XCTAssertEqual(Array(fetched.body.readableBytesView), Self.jpeg)
        }
    }

    /// A removed file stays in the bucket until its delay has passed, then the sweep deletes it.
    func testRemovalsWaitForTheirDelay() async throws {
        guard let server = try await S3TestServer.start(.rclone) else { throw XCTSkip("rclone is not installed here (scripts/test installs it)") }
        defer { server.stop() }
        let backend = S3FileBackend(client: server.client, redirect: false, deleteAfter: .seconds(3600), logger: TestEnvironment.logger)
        let store = FileStore(backend: backend, service: .market, area: "posts")
        let paths = try await store.store([MultipartForm.Part(name: "files", filename: "a.jpg", body: ByteBuffer(bytes: Self.jpeg))], appID: "app-1")
        let key = "market-svc/app-1/posts/" + paths[0].split(separator: "/").last!
        await store.remove(publicPath: paths[0], appID: "app-1")
        let kept = try await server.client.head(key)
        XCTAssertNotNil(kept, "kept for a backup restored in the meantime")
        let early = try await backend.sweep()
        XCTAssertEqual(early, 0)
        let late = try await backend.sweep(now: GlintDate.nowMilliseconds() + 3_600_001)
        XCTAssertEqual(late, 1)
        let gone = try await server.client.head(key)
        XCTAssertNil(gone)
        let marks = try await server.client.list(prefix: "_deleted/")
        XCTAssertEqual(marks.objects.count, 0, "its mark went with it")
    }

    static func configuration(_ server: S3TestServer) throws -> FileStorageConfiguration {
        try FileStorageConfiguration(reader: ConfigReader(environment: server.environment))
    }

    static func upload(_ client: some TestClientProtocol, _ harness: H) async throws -> String {
        let form = MultipartBody(parts: [.file("files", filename: "a.jpg", contentType: "image/jpeg", bytes: jpeg)])
        let upload = try await client.execute(
            uri: "/v1/posts/files", method: .post, headers: try await harness.headers(alice, [("content-type", form.contentType)]), body: form.buffer)
        XCTAssertEqual(upload.status, .ok, upload.body.text)
        return try XCTUnwrap(try JSON.object(upload.body)["files"] as? [String]).first.orThrow()
    }

    /// What a released app's image loader does with a file: the whole, a range, a revalidation.
    static func readsAsTheAppsDo(_ client: some TestClientProtocol, _ path: String) async throws {
        func get(_ extra: [(String, String)] = [], method: HTTPRequest.Method = .get) async throws -> TestResponse {
            try await client.execute(uri: "/v1" + path, method: method, headers: TestEnvironment.fields(app: PostContractTests.appID, extra: extra))
        }
        let whole = try await get()
        XCTAssertEqual(whole.status, .ok)
        XCTAssertEqual(Array(whole.body.readableBytesView), jpeg)
        XCTAssertEqual(whole.headers[.contentType], "image/jpeg")
        XCTAssertEqual(whole.headers[.acceptRanges], "bytes")
        XCTAssertEqual(whole.headers[.cacheControl], "public, max-age=31536000, immutable")
        let etag = try XCTUnwrap(whole.headers[.eTag])
        let part = try await get([("Range", "bytes=0-9")])
        XCTAssertEqual(part.status, .partialContent)
        XCTAssertEqual(part.headers[.contentRange], "bytes 0-9/\(jpeg.count)")
        XCTAssertEqual(Array(part.body.readableBytesView), Array(jpeg[0...9]))
        let tail = try await get([("Range", "bytes=-4")])
        XCTAssertEqual(Array(tail.body.readableBytesView), Array(jpeg.suffix(4)))
        let past = try await get([("Range", "bytes=999999-")])
        XCTAssertEqual(past.status, .rangeNotSatisfiable)
        let unchanged = try await get([("If-None-Match", etag)])
        XCTAssertEqual(unchanged.status, .notModified)
        XCTAssertEqual(unchanged.body.readableBytes, 0)
        let head = try await get(method: .head)
        XCTAssertEqual(head.status, .ok)
        XCTAssertEqual(head.headers[.contentLength], String(jpeg.count))
        let unknown = try await client.execute(
            uri: "/v1/data/posts/6740369b3a36e82f532ec7ff.jpg", method: .get, headers: TestEnvironment.fields(app: PostContractTests.appID))
        XCTAssertEqual(unknown.status, .notFound)
    }
}
