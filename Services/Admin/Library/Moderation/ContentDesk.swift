import Contracts
import ServiceClients
import ServiceKit

/// A piece of content by kind and id, and its hiding and restoring, shared by the admin API and
/// the console: asked of the service that keeps it, written to the audit log before and after.
struct ContentDesk: Sendable {
    let content: ContentClient
    let audit: AuditLog

    /// The kind and id as the path names them; 404 for an unknown kind or a malformed id.
    static func target(kind: String, id: String) throws -> (ContentKind, String) {
        guard let kind = ContentKind(rawValue: kind) else {
            throw ServiceError.notFound("kind must be one of \(ContentKind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard ObjectID.isValid(id) else { throw ServiceError.notFound("no such \(kind.rawValue)") }
        return (kind, id)
    }

    func summary(_ kind: ContentKind, _ id: String, app: AppInfo, by op: SignedInOperator) async throws -> ContentSummary {
        try await content.summary(kind, id, app.appID, op.requestID)
    }

    /// Several pieces of one kind, by id or an author's newest.
    func find(_ kind: ContentKind, _ query: ContentFind, app: AppInfo, by op: SignedInOperator) async throws -> [ContentSummary] {
        try await content.find(kind, query, app.appID, op.requestID)
    }

    /// A message with the few before and after it in its room, oldest first.
    func around(message id: String, app: AppInfo, by op: SignedInOperator) async throws -> [ContentSummary] {
        try await content.around(id, app.appID, op.requestID)
    }

    /// A user's newest pieces of every kind, newest first within each (the user's page).
    func authored(by userID: String, limit: Int, app: AppInfo, op: SignedInOperator) async throws -> [ContentKind: [ContentSummary]] {
        try await withThrowingTaskGroup(of: (ContentKind, [ContentSummary]).self) { tasks in
            for kind in ContentKind.allCases {
                tasks.addTask { (kind, try await content.find(kind, ContentFind(authorId: userID, limit: limit), app.appID, op.requestID)) }
            }
            return try await tasks.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
    }

    /// A stored upload of the app, read from the service that keeps it (the console shows
    /// images; a browser cannot send the app key the gateway asks for).
    func file(_ stored: String, etag: String?, app: AppInfo, by op: SignedInOperator) async throws -> ContentClient.StoredFile {
        guard let path = StoredFilePath(stored) else { throw ServiceError.notFound("no such file") }
        return try await content.file(path, etag, app.appID, op.requestID)
    }

    /// Hides (`hides`) or restores the content and writes the audit line.
    func change(
        _ kind: ContentKind, _ id: String, hides: Bool, reason: String?, app: AppInfo, by op: SignedInOperator
    ) async throws
        -> ContentSummary
    {
        let before = try await content.summary(kind, id, app.appID, op.requestID)
        let moderation = ModerationRequest(operatorID: op.record.id, reason: reason)
        let after =
            hides
            ? try await content.hide(kind, id, app.appID, moderation, op.requestID)
            : try await content.restore(kind, id, app.appID, moderation, op.requestID)
        try await audit.record(
            op, hides ? "content.hide" : "content.restore", app: app.appID, kind: kind.rawValue, target: id, before: JSONText.encode(before),
            after: JSONText.encode(after))
        return after
    }
}
