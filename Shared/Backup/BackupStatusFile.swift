import Contracts
import Foundation

/// `DATA_DIR/backup-status.json`: how the last backup run ended, kept beside the stores rather
/// than in the target, so a target that cannot be written still gets its failure recorded. With
/// a bucket as target it is also kept there (`BackupBucket`), for runs on other machines (a
/// Kubernetes CronJob) to be seen by admin-svc.
package enum BackupStatusFile {
    package static func path(in dataDirectory: String) -> String { dataDirectory + "/backup-status.json" }

    package static func read(in dataDirectory: String) -> BackupHealth? {
        guard let data = FileManager.default.contents(atPath: path(in: dataDirectory)) else { return nil }
        return try? JSONDecoder().decode(BackupHealth.self, from: data)
    }

    /// Records a run's end: a snapshot taken, or the error; the last success is kept across failures.
    package static func record(in dataDirectory: String, snapshot: String?, error: String?, at time: Int64) throws {
        let status = updated(read(in: dataDirectory), snapshot: snapshot, error: error, at: time)
        try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
        try JSONEncoder().encode(status).write(to: URL(fileURLWithPath: path(in: dataDirectory)), options: .atomic)
    }

    /// `previous` after a run that took `snapshot` or failed with `error`.
    package static func updated(_ previous: BackupHealth?, snapshot: String?, error: String?, at time: Int64) -> BackupHealth {
        if let snapshot { return BackupHealth(status: "ok", lastRunAt: time, lastSnapshot: snapshot, lastSuccessAt: time) }
        return BackupHealth(
            status: "failed", lastRunAt: time, lastSnapshot: previous?.lastSnapshot, lastSuccessAt: previous?.lastSuccessAt,
            error: String((error ?? "unknown").prefix(500)))
    }
}
