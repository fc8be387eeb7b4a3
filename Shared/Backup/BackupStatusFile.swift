import Contracts
import Foundation

/// `DATA_DIR/backup-status.json`: how the last backup run ended, kept beside the stores rather
/// than in the target, so a target that cannot be written still gets its failure recorded.
package enum BackupStatusFile {
    package static func path(in dataDirectory: String) -> String { dataDirectory + "/backup-status.json" }

    package static func read(in dataDirectory: String) -> BackupHealth? {
        guard let data = FileManager.default.contents(atPath: path(in: dataDirectory)) else { return nil }
        return try? JSONDecoder().decode(BackupHealth.self, from: data)
    }

    /// Records a run's end: a snapshot taken, or the error; the last success is kept across failures.
    package static func record(in dataDirectory: String, snapshot: String?, error: String?, at time: Int64) throws {
        let previous = read(in: dataDirectory)
        let status =
            if let snapshot {
                BackupHealth(status: "ok", lastRunAt: time, lastSnapshot: snapshot, lastSuccessAt: time)
            } else {
                BackupHealth(
                    status: "failed", lastRunAt: time, lastSnapshot: previous?.lastSnapshot, lastSuccessAt: previous?.lastSuccessAt,
                    error: String((error ?? "unknown").prefix(500)))
            }
        try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
        try JSONEncoder().encode(status).write(to: URL(fileURLWithPath: path(in: dataDirectory)), options: .atomic)
    }
}
