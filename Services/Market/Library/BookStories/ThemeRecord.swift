import GRDB

/// A theme (the client's "folder"): a named, optionally public collection of its author's stories.
struct ThemeRecord: AuthoredRecord, Equatable {
    var id: String
    var appID: String
    var userID: String
    var name: String
    var description: String?
    var image: String?
    var isPublic: Bool
    var createdAt: Int64
    var updatedAt: Int64

    var files: [String] { image.map { [$0] } ?? [] }

    init(
        id: String, appID: String, userID: String, name: String, description: String?, image: String?, isPublic: Bool, createdAt: Int64,
        updatedAt: Int64
    ) {
        (self.id, self.appID, self.userID, self.name, self.description, self.image) = (id, appID, userID, name, description, image)
        (self.isPublic, self.createdAt, self.updatedAt) = (isPublic, createdAt, updatedAt)
    }

    init(row: Row) {
        self.init(
            id: row["id"], appID: row["app_id"], userID: row["user_id"], name: row["name"], description: row["description"], image: row["image"],
            isPublic: row["is_public"], createdAt: row["created_at"], updatedAt: row["updated_at"])
    }
}
