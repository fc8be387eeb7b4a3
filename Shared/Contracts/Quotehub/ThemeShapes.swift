/// API.md §9 **Theme** (a folder of stories); `description` and `folderImageURL` left out when none.
package struct QuotehubTheme: Codable, Sendable, Equatable {
    package var id: String
    package var userId: QuotehubUser
    package var name: String
    package var description: String?
    package var folderImageURL: String?
    package var isPublic: Bool
    package var createdAt: String
    package var updatedAt: String

    package init(
        id: String, userId: QuotehubUser, name: String, description: String?, folderImageURL: String?, isPublic: Bool, createdAt: String,
        updatedAt: String
    ) {
        (self.id, self.userId, self.name, self.description, self.folderImageURL) = (id, userId, name, description, folderImageURL)
        (self.isPublic, self.createdAt, self.updatedAt) = (isPublic, createdAt, updatedAt)
    }

    enum CodingKeys: String, CodingKey {
        case id = "_id"
        case userId, name, description, folderImageURL, isPublic, createdAt, updatedAt
    }
}

/// `POST /folder/create`, `PUT /folder/update/{id}` as JSON (multipart: the same fields, `isPublic`
/// `"true"`/`"false"`, file `folderImage`).
package struct ThemeFields: Codable, Sendable, Equatable {
    package var name: String?
    package var description: String?
    package var isPublic: Bool?

    package init(name: String? = nil, description: String? = nil, isPublic: Bool? = nil) {
        (self.name, self.description, self.isPublic) = (name, description, isPublic)
    }
}
