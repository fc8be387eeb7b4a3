import Foundation

/// `FILES_S3_URL`, path-style: `https://host:port/bucket` — the origin requests go to, the
/// `Host` they are signed for, and each object's path.
package struct S3BucketURL: Sendable, Equatable {
    /// `https://host:port`.
    package var origin: String
    /// `host:port` (the port only when the URL names one), as signed.
    package var host: String
    package var bucket: String

    package init?(_ text: String) {
        guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme), let hostName = url.host,
            !hostName.isEmpty
        else { return nil }
        let parts = url.path.split(separator: "/")
        guard parts.count == 1, let bucket = parts.first.map(String.init), !bucket.isEmpty else { return nil }
        host = url.port.map { "\(hostName):\($0)" } ?? hostName
        origin = scheme + "://" + host
        self.bucket = bucket
    }

    /// `/bucket`.
    package var bucketPath: String { "/" + SigV4Signer.encode(bucket) }

    /// `/bucket/<key>`, the key percent-encoded with its slashes kept.
    package func path(of key: String) -> String {
        bucketPath + "/" + SigV4Signer.encode(key, keepSlash: true)
    }
}
