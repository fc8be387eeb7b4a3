import Contracts

/// What one service keeps of the kinds operators moderate, as `ContentModeration` asks it: a
/// piece by id, an author's newest, and (chat-svc) a message's neighbours in its room.
package struct ContentCatalog: Sendable {
    /// A piece as operators see it.
    package struct Found: Sendable {
        package var authorID: String
        package var preview: String
        /// Stored paths (`/data/<area>/<name>`).
        package var files: [String]
        /// Milliseconds.
        package var createdAt: Int64

        package init(authorID: String, preview: String, files: [String] = [], createdAt: Int64) {
            (self.authorID, self.preview, self.files, self.createdAt) = (authorID, preview, files, createdAt)
        }
    }

    /// The piece of the app; nil when there is none.
    package var find: @Sendable (_ kind: ContentKind, _ id: String, _ appID: String) async throws -> Found?
    /// The ids of the author's newest pieces of the app, newest first.
    package var authored: @Sendable (_ kind: ContentKind, _ authorID: String, _ appID: String, _ limit: Int) async throws -> [String]
    /// The ids of the few pieces around one, oldest first, itself included; nil where the kinds
    /// have no order to show them in.
    package var around: (@Sendable (_ id: String, _ appID: String) async throws -> [String])?

    package init(
        find: @escaping @Sendable (ContentKind, String, String) async throws -> Found?,
        authored: @escaping @Sendable (ContentKind, String, String, Int) async throws -> [String],
        around: (@Sendable (String, String) async throws -> [String])? = nil
    ) {
        (self.find, self.authored, self.around) = (find, authored, around)
    }
}
