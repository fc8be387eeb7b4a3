import AsyncHTTPClient
import Backup
import Contracts
import FileStorage
import ServiceKit
import Storage

/// The launcher's scheduled backups (`glint start`; on Kubernetes a CronJob runs `glint backup create`).
package struct BackupSettings: Sendable {
    package static let schedule = ConfigVariable(
        "BACKUP_SCHEDULE", default: "", "when `glint start` takes snapshots (UTC): hourly, daily HH:MM, every N{s,m,h}; unset: never")
    package static let keep = ConfigVariable("BACKUP_KEEP", default: "7", "snapshots a scheduled backup keeps (the newest; older ones are removed)")
    package static let directory = ConfigVariable("BACKUP_DIR", default: "", "the folder scheduled snapshots go to (default DATA_DIR/backups)")
    package static let postgresTools = ConfigVariable(
        "BACKUP_PG_BIN", default: "", "the folder with pg_dump and pg_restore (of the server's major version or newer); unset: the PATH's")
    package static let cpuPercent = ConfigVariable(
        "BACKUP_CPU_PERCENT", default: "25",
        "the share of one core a snapshot's digests and compression keep to while the suite serves (5-100; 100: unpaced)")
    package static let all = [schedule, keep, directory, postgresTools, cpuPercent] + BackupBucket.all
    /// Also read: where to ask the services whose file may be out of reach, and the secret to ask with.
    package static let asking = [CommonSettings.internalSecret] + ServiceCatalog.snapshotOverHTTP.map { CommonSettings.url(of: $0) }

    package var schedule: BackupSchedule?
    package var keep: Int
    package var directory: String?
    package var bucket: BackupBucket?
    /// The services whose `<SVC>_DATABASE_URL` names a PostgreSQL database: dumped, and restored into it.
    package var databases: [ServiceName: String] = [:]
    package var tools: PostgresTools
    package var asked: [ServiceName: String] = [:]
    package var internalSecret: String
    package var pace: WorkPace

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
        pace = WorkPace(share: Double(try reader.int(Self.cpuPercent, in: 5...100)) / 100)
        let directory = try reader.string(Self.directory)
        self.directory = directory.isEmpty ? nil : directory
        for service in ServiceName.allCases {
            if let variable = ServiceCatalog.databaseURLVariable(for: service), let url = try reader.databaseURL(variable) {
                databases[service] = url
            }
        }
        let tools = try reader.string(Self.postgresTools)
        self.tools = PostgresTools(directory: tools.isEmpty ? nil : tools)
        bucket = try BackupBucket.read(reader)
        // Asked only where set: unset, the service's file is looked for in the data folder alone.
        for service in ServiceCatalog.snapshotOverHTTP where try !reader.string(CommonSettings.url(of: service), default: "").isEmpty {
            asked[service] = try reader.url(CommonSettings.url(of: service))
        }
        internalSecret = try reader.string(CommonSettings.internalSecret, default: "")
        if !asked.isEmpty, internalSecret.isEmpty {
            try reader.refuse(
                CommonSettings.internalSecret, "is needed to ask \(asked.keys.map(\.rawValue).sorted()) for a copy of its store", standIn: ())
        }
    }

    /// Every service's store in `dataDirectory` or its database.
    package func sources(dataDirectory: String) -> Backups.Sources {
        Backups.Sources(dataDirectory: dataDirectory, databases: databases, tools: tools, asked: asked, internalSecret: internalSecret, pace: pace)
    }

    /// Where snapshots are kept: the folder a command names (`--to`, `--from`), else the bucket
    /// `BACKUP_S3_URL` names, else `BACKUP_DIR`, else `DATA_DIR/backups`.
    package func store(dataDirectory: String, folder given: String? = nil, http: HTTPClient = .shared) -> BackupStore {
        if let given { return .folder(given) }
        if let bucket { return .bucket(bucket.client(http: http)) }
        return .folder(directory ?? dataDirectory + "/backups")
    }
}
