import Hummingbird
import NIOCore
import ServiceKit
import ServiceLifecycle

/// Where a service keeps uploaded bytes: its data folder (`LocalFileBackend`, the default) or an
/// S3-compatible bucket (`S3FileBackend`, when `FILES_S3_URL` is set). Names are made anew for
/// every upload, so a write never overwrites.
package protocol FileBackend: Sendable {
    /// `local` or `s3`, as `/health` and the logs name it.
    var name: String { get }
    func write(_ key: FileKey, _ bytes: ByteBuffer, kind: ImageKind) async throws
    /// `GET`/`HEAD` of the file as the apps read it: type, `ETag`, `304` on `If-None-Match`,
    /// one `Range`, the body streamed.
    func response(for key: FileKey, kind: ImageKind, request: Request, context: GlintRequestContext) async throws -> Response
    /// Forgets the file (a bucket keeps it `FILES_S3_DELETE_AFTER` longer).
    func remove(_ key: FileKey) async
    /// Throws when the store cannot be used (`/health`).
    func check() async throws
    /// What runs with the service (a bucket's sweeper of delayed deletions).
    var services: [any Service] { get }
}
