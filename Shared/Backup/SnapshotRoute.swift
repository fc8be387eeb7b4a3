import Contracts
import Foundation
import Hummingbird
import NIOCore
import NIOPosix
import ServiceKit

/// `GET InternalEndpoints.snapshotPath`: a consistent copy of the service's SQLite file (`SQLiteSnapshot`),
/// for a `glint backup create` that cannot open the file itself — geo-svc's volume in Kubernetes
/// is its pod's own. The answer is a tar of the part's manifest entry and the copy.
package enum SnapshotRoute {
    static let partEntry = "part.json"

    package static func register(on group: ServiceApplication.Group, databasePath: String, service: ServiceName) {
        group.get(RouterPath(InternalEndpoints.snapshotPath)) { _, _ -> Response in
            let archive = try await NIOThreadPool.singleton.runIfActive {
                let (bytes, part) = try SQLiteSnapshot.take(databasePath, service: service.rawValue)
                return try TarArchive.encode([
                    TarArchive.Entry(name: partEntry, bytes: try JSONCoding.encoder.encode(part)), TarArchive.Entry(name: part.name, bytes: bytes),
                ])
            }
            return Response(status: .ok, headers: [.contentType: "application/x-tar"], body: ResponseBody(byteBuffer: ByteBuffer(data: archive)))
        }
    }

    /// The copy and its part out of an answer, the copy checked against the part's digest.
    package static func read(_ answer: Data) throws -> (bytes: Data, part: BackupManifest.Part) {
        let entries = try TarArchive.decode(answer)
        guard entries.count == 2, entries[0].name == partEntry,
            let part = try? JSONCoding.decoder.decode(BackupManifest.Part.self, from: entries[0].bytes), entries[1].name == part.name,
            BackupManifest.digest(entries[1].bytes) == part.sha256
        else { throw TarArchive.Failure.malformed("not a snapshot of a service's store") }
        return (entries[1].bytes, part)
    }
}
