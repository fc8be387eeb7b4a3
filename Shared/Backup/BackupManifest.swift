import Contracts
import Crypto
import Foundation

/// What a snapshot holds (`manifest.json`, its archive's first entry): each part's digest and
/// size, when it was taken, and for a service's store its schema level and rows per table.
package struct BackupManifest: Codable, Sendable, Equatable {
    package struct Part: Codable, Sendable, Equatable {
        /// The entry's name in the archive (`market-svc.sqlite`, `files/posts/<name>`).
        package var name: String
        package var sha256: String
        package var bytes: Int
        /// Milliseconds; a store's part is the moment its read transaction began.
        package var takenAt: Int64
        /// A store's: its service, engine and version, migrations applied, rows per table.
        package var service: String?
        package var engine: String?
        package var engineVersion: String?
        package var migrations: [String]?
        package var rowCounts: [String: Int]?

        package init(name: String, sha256: String, bytes: Int, takenAt: Int64) {
            (self.name, self.sha256, self.bytes, self.takenAt) = (name, sha256, bytes, takenAt)
        }
    }

    package var id: String
    package var startedAt: Int64
    package var finishedAt: Int64
    package var parts: [Part]

    package init(id: String, startedAt: Int64, finishedAt: Int64, parts: [Part]) {
        (self.id, self.startedAt, self.finishedAt, self.parts) = (id, startedAt, finishedAt, parts)
    }

    /// A part's `sha256`, as the manifest writes it.
    package static func digest(_ bytes: Data, pace: WorkPace = .unpaced) -> String {
        var hash = SHA256()
        pace.each([bytes]) { hash.update(data: $0) }
        return Hex.encode(hash.finalize())
    }
}
