import AsyncHTTPClient
import FileStorage
import Foundation
import NIOCore
import ServiceKit
import TestSupport
import XCTest

/// Our S3 client against two real S3-compatible servers (rclone, which checks signatures
/// strictly, and SeaweedFS): every call the file stores make, a presigned URL, and a wrong secret
/// refused.
final class S3ClientTests: XCTestCase {
    func testEveryCallAgainstRclone() async throws {
        try await exercise(.rclone)
    }

    func testEveryCallAgainstSeaweedFS() async throws {
        try await exercise(.seaweedfs)
    }

    private func exercise(_ kind: S3TestServer.Kind) async throws {
        guard let server = try await S3TestServer.start(kind) else {
            throw XCTSkip("\(kind.rawValue) is not installed here (scripts/test installs it)")
        }
        defer { server.stop() }
        let client = server.client
        let bytes = ByteBuffer(bytes: (0..<2000).map { UInt8($0 % 251) })
        let key = "market/app-1/posts/6740369b3a36e82f532ec7aa.png"
        let etag = try await client.put(key, bytes, contentType: "image/png")
        XCTAssertNotNil(etag)

        let whole = try await client.get(key)
        XCTAssertEqual(whole.status.code, 200)
        XCTAssertEqual(whole.headers.first(name: "etag"), etag)
        let wholeBody = try await whole.body.collect(upTo: 1 << 20)
        XCTAssertEqual(wholeBody, bytes, "\(kind): the same bytes")
        let part = try await client.get(key, range: "bytes=0-9")
        XCTAssertEqual(part.status.code, 206)
        XCTAssertEqual(part.headers.first(name: "content-range"), "bytes 0-9/2000")
        let partBody = try await part.body.collect(upTo: 1 << 20)
        XCTAssertEqual(Array(partBody.readableBytesView), (0..<10).map { UInt8($0) })
        let unchanged = try await client.get(key, ifNoneMatch: etag)
        XCTAssertEqual(unchanged.status.code, 304)
        let head = try await client.head(key)
        XCTAssertEqual(head?.size, 2000)
        let missing = try await client.head("market/app-1/posts/none.png")
        XCTAssertNil(missing)
        let absent = try await client.get("market/app-1/posts/none.png")
        XCTAssertEqual(absent.status.code, 404)

        for index in 0..<3 { try await client.put("market/app-2/posts/\(index).png", bytes, contentType: "image/png") }
        var listed: [String] = []
        var next: String?
        repeat {
            let page = try await client.list(prefix: "market/app-2/", continuation: next, maxKeys: 2)
            listed += page.objects.map(\.key)
            XCTAssertTrue(page.objects.allSatisfy { $0.size == 2000 })
            next = page.next
        } while next != nil
        XCTAssertEqual(listed, (0..<3).map { "market/app-2/posts/\($0).png" }, "\(kind): in key order, over pages")

        let presigned = client.presignedURL(key, expires: 300)
        let fetched = try await HTTPProbe.call(.GET, presigned)
        XCTAssertEqual(fetched.status, 200, "\(kind): \(fetched.body.text)")
        XCTAssertEqual(fetched.body, bytes)

        try await client.delete(key)
        try await client.delete(key)
        let deleted = try await client.head(key)
        XCTAssertNil(deleted, "deleted, and deleting again is no error")

        let forger = S3Client(
            bucketURL: client.bucketURL, signer: SigV4Signer(accessKeyID: server.accessKeyID, secretAccessKey: "not-the-secret", region: "us-east-1"),
            http: .shared)
        do {
            try await forger.put("market/app-1/posts/forged.png", bytes, contentType: "image/png")
            XCTFail("\(kind) took a badly signed request")
        } catch let error as ServiceError {
            XCTAssertEqual(error.code, .unavailable)
            XCTAssertTrue(error.message.contains("refused"), error.message)
        }
    }
}
