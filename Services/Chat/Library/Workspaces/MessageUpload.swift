import Contracts
import FileStorage
import Hummingbird
import ServiceKit

/// A §8 message as the apps send it: JSON `{content}`, or multipart with `content` (left out
/// when empty) and 1–5 file parts `files` (duplicate filenames are normal; we name stored files).
/// Files are stored before the message and removed again when it is refused.
struct MessageUpload: Sendable {
    let files: FileStore

    func send<Answer>(
        _ request: Request, context: GlintRequestContext, _ post: (_ content: String, _ files: [String]) async throws -> Answer
    ) async throws -> Answer {
        guard MultipartForm.isMultipart(request) else {
            let body = try await request.decode(as: ContentRequest.self, context: context)
            return try await post(body.content ?? "", [])
        }
        let form = try await MultipartForm.read(request, limits: .uploads)
        let content = form.field("content") ?? ""
        let parts = form.files(named: "files")
        try MessagePoster.check(content: content, fileCount: parts.count)
        return try await files.storing(parts, appID: try context.requireAppID()) { paths in try await post(content, paths) }
    }
}
