import Contracts

/// A piece of content as the console lists it (`content-row.mustache`): its text, its images
/// (read through admin-svc, `…/files/<area>/<name>`), author, time and state; `marked` picks out
/// the one asked for among its neighbours.
struct ContentRow {
    var appID: String
    var kind: String
    var id: String
    var preview: String
    var authorID: String
    var createdAt: String
    var hidden: Bool
    var images: [String]
    /// Stored: templates read values by reflection, which sees no computed property.
    var hasImages: Bool
    var marked: Bool

    init(_ summary: ContentSummary, marked: Bool = false) {
        (appID, kind, id, preview, authorID) = (summary.appId, summary.kind.rawValue, summary.id, summary.preview, summary.authorId)
        (createdAt, hidden, self.marked) = (summary.createdAt, summary.hidden, marked)
        images = summary.files.compactMap { Self.imageURL($0, appID: summary.appId) }
        hasImages = !images.isEmpty
    }

    /// Where the console shows a stored file (`/data/posts/x.jpg`) of the app; nil for anything
    /// that is not a stored file's path.
    static func imageURL(_ stored: String, appID: String) -> String? {
        StoredFilePath(stored).map { _ in "/admin/apps/\(appID)/files" + stored.dropFirst("/data".count) }
    }
}
