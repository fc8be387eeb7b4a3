import AsyncHTTPClient
import Logging
import ServiceKit

/// Where auth-svc, chat-svc and market-svc keep uploads: the data folder, or an S3-compatible
/// bucket when `FILES_S3_URL` is set (then no replica needs a shared disk).
package enum FileStorageSettings {
    package static let url = ConfigVariable(
        "FILES_S3_URL", default: "", "S3-compatible bucket for uploaded files, path-style (https://host:port/bucket); empty: DATA_DIR/files")
    package static let region = ConfigVariable("FILES_S3_REGION", default: "us-east-1", "the bucket's region, as requests are signed for it")
    package static let accessKeyID = ConfigVariable("FILES_S3_ACCESS_KEY_ID", default: "", "access key id for the bucket")
    package static let secretAccessKey = ConfigVariable("FILES_S3_SECRET_ACCESS_KEY", default: "", "secret access key for the bucket")
    package static let redirect = ConfigVariable(
        "FILES_S3_REDIRECT", default: "false", "true: file reads answer 302 to a presigned URL valid 5 minutes instead of passing the bytes on")
    package static let deleteAfterSeconds = ConfigVariable(
        "FILES_S3_DELETE_AFTER", default: "604800",
        "seconds a removed file is kept, in the bucket or under DATA_DIR/files/_deleted (a restored backup may still point at it)")

    package static var all: [ConfigVariable] { [url, region, accessKeyID, secretAccessKey, redirect, deleteAfterSeconds] }

}

/// What the settings name: the data folder, or a bucket.
package enum FileStorageConfiguration: Sendable {
    case local(deleteAfter: Duration)
    case s3(bucket: S3BucketURL, signer: SigV4Signer, redirect: Bool, deleteAfter: Duration)

    /// The data folder, removals kept the default week: what a service has before its settings are read.
    package static let dataFolder = FileStorageConfiguration.local(deleteAfter: .seconds(604_800))

    package init(reader: ConfigReader) throws {
        let text = try reader.string(FileStorageSettings.url)
        let deleteAfter = Duration.seconds(try reader.int(FileStorageSettings.deleteAfterSeconds, in: 0...(365 * 86_400)))
        guard !text.isEmpty else {
            self = .local(deleteAfter: deleteAfter)
            return
        }
        guard let bucket = S3BucketURL(text) else {
            self = try reader.refuse(FileStorageSettings.url, "must be http(s)://host[:port]/bucket", standIn: .dataFolder)
            return
        }
        var keyID = try reader.string(FileStorageSettings.accessKeyID), secret = try reader.string(FileStorageSettings.secretAccessKey)
        if keyID.isEmpty { keyID = try reader.refuse(FileStorageSettings.accessKeyID, "is required with FILES_S3_URL", standIn: "") }
        if secret.isEmpty { secret = try reader.refuse(FileStorageSettings.secretAccessKey, "is required with FILES_S3_URL", standIn: "") }
        self = .s3(
            bucket: bucket,
            signer: SigV4Signer(accessKeyID: keyID, secretAccessKey: secret, region: try reader.string(FileStorageSettings.region)),
            redirect: try reader.bool(FileStorageSettings.redirect), deleteAfter: deleteAfter)
    }

    /// The backend for a service whose data folder is `dataDirectory`; a bucket's with an HTTP
    /// client of its own, which runs (and is shut down) with the service.
    package func backend(dataDirectory: String, logger: Logger) -> any FileBackend {
        switch self {
        case .local(let deleteAfter):
            return LocalFileBackend(dataDirectory: dataDirectory, deleteAfter: deleteAfter, logger: logger)
        case .s3(let bucket, let signer, let redirect, let deleteAfter):
            let http = HTTPClientService.make(retryConnecting: false)
            return S3FileBackend(
                client: S3Client(bucketURL: bucket, signer: signer, http: http.client), redirect: redirect, deleteAfter: deleteAfter,
                logger: logger, owning: http)
        }
    }
}
