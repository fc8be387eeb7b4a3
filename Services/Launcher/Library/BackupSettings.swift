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
    package static let bucketURL = ConfigVariable(
        "BACKUP_S3_URL", default: "", "S3-compatible bucket snapshots go to, path-style (https://host:port/bucket); unset: a folder")
    package static let bucketRegion = ConfigVariable("BACKUP_S3_REGION", default: "us-east-1", "the backup bucket's region")
    package static let bucketKeyID = ConfigVariable("BACKUP_S3_ACCESS_KEY_ID", default: "", "access key id for the backup bucket")
    package static let bucketSecret = ConfigVariable("BACKUP_S3_SECRET_ACCESS_KEY", default: "", "secret access key for the backup bucket")
    package static let postgresTools = ConfigVariable(
        "BACKUP_PG_BIN", default: "", "the folder with pg_dump and pg_restore (of the server's major version or newer); unset: the PATH's")
    package static let all = [schedule, keep, directory, bucketURL, bucketRegion, bucketKeyID, bucketSecret, postgresTools]

    package var schedule: BackupSchedule?
    package var keep: Int
    package var directory: String?
    package var bucket: (url: S3BucketURL, signer: SigV4Signer)?
    /// The services whose `<SVC>_DATABASE_URL` names a PostgreSQL database: dumped, and restored into it.
    package var databases: [ServiceName: String] = [:]
    package var tools: PostgresTools

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
        for service in ServiceName.allCases {
            if let variable = ServiceCatalog.databaseURLVariable(for: service), let url = try reader.databaseURL(variable) {
                databases[service] = url
            }
        }
        let tools = try reader.string(Self.postgresTools)
        self.tools = PostgresTools(directory: tools.isEmpty ? nil : tools)
        let bucketText = try reader.string(Self.bucketURL)
        if bucketText.isEmpty {
            bucket = nil
        } else if let url = S3BucketURL(bucketText) {
            var keyID = try reader.string(Self.bucketKeyID), secret = try reader.string(Self.bucketSecret)
            if keyID.isEmpty { keyID = try reader.refuse(Self.bucketKeyID, "is required with BACKUP_S3_URL", standIn: "") }
            if secret.isEmpty { secret = try reader.refuse(Self.bucketSecret, "is required with BACKUP_S3_URL", standIn: "") }
            bucket = (url, SigV4Signer(accessKeyID: keyID, secretAccessKey: secret, region: try reader.string(Self.bucketRegion)))
        } else {
            bucket = try reader.refuse(Self.bucketURL, "must be http(s)://host[:port]/bucket", standIn: nil)
        }
    }

    /// Every service's store in `dataDirectory` or its database.
    package func sources(dataDirectory: String) -> Backups.Sources {
        Backups.Sources(dataDirectory: dataDirectory, databases: databases, tools: tools)
    }

    /// Where snapshots are kept: the folder a command names (`--to`, `--from`), else the bucket
    /// `BACKUP_S3_URL` names, else `BACKUP_DIR`, else `DATA_DIR/backups`.
    package func store(dataDirectory: String, folder given: String? = nil, http: HTTPClient = .shared) -> BackupStore {
        if let given { return .folder(given) }
        if let bucket { return .bucket(S3Client(bucketURL: bucket.url, signer: bucket.signer, http: http)) }
        return .folder(directory ?? dataDirectory + "/backups")
    }
}
