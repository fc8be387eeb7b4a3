/// API.md §8's JSON request bodies (multipart ones are read field by field).

/// `PUT /workspaces/{wid}` (JSON form) and channel create/update: `""` or a missing key means unchanged.
package struct NameDescriptionRequest: Codable, Sendable {
    package var name: String?
    package var description: String?

    package init(name: String?, description: String? = nil) {
        (self.name, self.description) = (name, description)
    }
}

/// `POST /workspaces/{wid}/members`.
package struct InviteRequest: Codable, Sendable {
    package var email: String

    package init(email: String) {
        self.email = email
    }
}

/// `PUT /workspaces/{wid}/transfer/ownership`.
package struct OwnershipRequest: Codable, Sendable {
    package var ownerID: String

    package init(ownerID: String) {
        self.ownerID = ownerID
    }

    enum CodingKeys: String, CodingKey {
        case ownerID = "owner_id"
    }
}

/// A channel or DM message sent as JSON.
package struct ContentRequest: Codable, Sendable {
    package var content: String?

    package init(content: String?) {
        self.content = content
    }
}
