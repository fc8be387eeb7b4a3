import Backup
import ServiceKit

/// The launcher's scheduled backups (`glint start`; on Kubernetes a CronJob runs `glint backup create`).
package struct BackupSettings: Sendable {
    package static let schedule = ConfigVariable(
        "BACKUP_SCHEDULE", default: "", "when `glint start` takes snapshots (UTC): hourly, daily HH:MM, every N{s,m,h}; unset: never")
    package static let keep = ConfigVariable("BACKUP_KEEP", default: "7", "snapshots a scheduled backup keeps (the newest; older ones are removed)")
    package static let directory = ConfigVariable("BACKUP_DIR", default: "", "the folder scheduled snapshots go to (default DATA_DIR/backups)")
    package static let all = [schedule, keep, directory]

    package var schedule: BackupSchedule?
    package var keep: Int
    package var directory: String?

    package init(reader: ConfigReader) throws {
        let text = try reader.string(Self.schedule)
        if text.isEmpty {
            schedule = nil
        } else {
            schedule =
                try BackupSchedule(text)
                ?? reader.refuse(Self.schedule, "must be hourly, daily HH:MM or every N{s,m,h} dividing a day, got '\(text)'", standIn: nil)
        }
        keep = try reader.int(Self.keep, in: 1...10_000)
        let directory = try reader.string(Self.directory)
        self.directory = directory.isEmpty ? nil : directory
    }
}
