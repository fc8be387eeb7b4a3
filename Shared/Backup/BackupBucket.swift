import AsyncHTTPClient
import Contracts
import FileStorage
import Foundation
import NIOCore
import ServiceKit

/// `BACKUP_S3_URL` and its keys: the S3-compatible bucket snapshots go to (`glint backup`, the
/// launcher's schedule, a Kubernetes CronJob), which admin-svc reads the last run's status from.
package struct BackupBucket: Sendable {
    package static let url = ConfigVariable(
        "BACKUP_S3_URL", default: "", "S3-compatible bucket snapshots go to, path-style (https://host:port/bucket); unset: a folder")
    package static let region = ConfigVariable("BACKUP_S3_REGION", default: "us-east-1", "the backup bucket's region")
    package static let accessKeyID = ConfigVariable("BACKUP_S3_ACCESS_KEY_ID", default: "", "access key id for the backup bucket")
    package static let secretAccessKey = ConfigVariable("BACKUP_S3_SECRET_ACCESS_KEY", default: "", "secret access key for the backup bucket")
    package static let all = [url, region, accessKeyID, secretAccessKey]

    /// Where each run's status is kept beside the snapshots.
    static let statusKey = "backups/status.json"

    package var bucketURL: S3BucketURL
    package var signer: SigV4Signer

    /// The bucket the settings name; nil when `BACKUP_S3_URL` is unset.
    package static func read(_ reader: ConfigReader) throws -> BackupBucket? {
        let text = try reader.string(url)
        guard !text.isEmpty else { return nil }
        guard let bucketURL = S3BucketURL(text) else { return try reader.refuse(url, "must be http(s)://host[:port]/bucket", standIn: nil) }
        var keyID = try reader.string(accessKeyID), secret = try reader.string(secretAccessKey)
        if keyID.isEmpty { keyID = try reader.refuse(accessKeyID, "is required with BACKUP_S3_URL", standIn: "") }
        if secret.isEmpty { secret = try reader.refuse(secretAccessKey, "is required with BACKUP_S3_URL", standIn: "") }
        return BackupBucket(
            bucketURL: bucketURL, signer: SigV4Signer(accessKeyID: keyID, secretAccessKey: secret, region: try reader.string(region)))
    }

    package func client(http: HTTPClient) -> S3Client {
        S3Client(bucketURL: bucketURL, signer: signer, http: http)
    }

    /// The last run's status kept in the bucket; nil when none has been.
    package static func status(in client: S3Client) async throws -> BackupHealth? {
        let response = try await client.get(statusKey)
        guard response.status == .ok else { return nil }
        return try JSONCoding.decoder.decode(BackupHealth.self, from: try await response.body.collect(upTo: 1 << 20))
    }

    package static func recordStatus(_ status: BackupHealth, in client: S3Client) async throws {
        try await client.put(statusKey, JSONCoding.encode(status), contentType: "application/json")
    }
}
