import AsyncHTTPClient
import Contracts
import FileStorage
import Foundation
import Logging
import NIOCore
import ServiceKit

/// A deployment's uploads as commands read and write them: where the services keep them
/// (`FILES_S3_*`'s bucket, else `DATA_DIR/files`).
package struct UploadedFiles: Sendable {
    /// The file's bytes; nil when there is none.
    package var read: @Sendable (FileKey) async throws -> Data?
    package var write: @Sendable (FileKey, Data) async throws -> Void

    /// An export reads no file larger than uploads may be.
    static let largest = 64 << 20

    package static func configured(dataDirectory: String, reader: ConfigReader, http: HTTPClient = .shared) throws -> UploadedFiles {
        switch try FileStorageConfiguration(reader: reader) {
        case .local(let deleteAfter):
            let backend = LocalFileBackend(dataDirectory: dataDirectory, deleteAfter: deleteAfter)
            return UploadedFiles(
                read: { key in FileManager.default.contents(atPath: backend.path(of: key)) },
                write: { key, bytes in try await backend.write(key, ByteBuffer(bytes: bytes), kind: try kind(of: key)) })
        case .s3(let bucket, let signer, _, _):
            let client = S3Client(bucketURL: bucket, signer: signer, http: http)
            return UploadedFiles(
                read: { key in
                    let answer = try await client.get(key.objectKey)
                    if answer.status == .notFound { return nil }
                    guard answer.status == .ok else {
                        throw ServiceError(.upstreamFailed, "the bucket answered \(answer.status) for \(key.objectKey)")
                    }
                    return Data(try await answer.body.collect(upTo: largest).readableBytesView)
                },
                write: { key, bytes in _ = try await client.put(key.objectKey, ByteBuffer(bytes: bytes), contentType: try kind(of: key).contentType) }
            )
        }
    }

    private static func kind(of key: FileKey) throws -> ImageKind {
        guard let kind = ImageKind.forFileName(key.name) else {
            throw ServiceError.badRequest("\(key.area)/\(key.name) is not a stored image's name")
        }
        return kind
    }
}
