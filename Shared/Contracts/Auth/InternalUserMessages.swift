/// auth-svc's internal answers for other services.
package struct UserLookupRequest: Codable, Sendable, Equatable {
    package var userIDs: [String]

    package init(userIDs: [String]) {
        self.userIDs = userIDs
    }

    enum CodingKeys: String, CodingKey {
        case userIDs = "user_ids"
    }
}

package struct UserLookupAnswer: Codable, Sendable, Equatable {
    /// Only the users that exist (in the caller's app), in no particular order.
    package var users: [UserInfoFull]

    package init(users: [UserInfoFull]) {
        self.users = users
    }
}

package struct UserIDList: Codable, Sendable, Equatable {
    package var userIDs: [String]

    package init(userIDs: [String]) {
        self.userIDs = userIDs
    }

    enum CodingKeys: String, CodingKey {
        case userIDs = "user_ids"
    }
}

/// Workspace members (API.md §8 **User**) by id: only those that exist in the caller's app.
package struct MemberLookupAnswer: Codable, Sendable, Equatable {
    package var users: [SlpUser]

    package init(users: [SlpUser]) {
        self.users = users
    }
}

/// A user of the caller's app by email (inviting a workspace member).
package struct EmailLookup: Codable, Sendable, Equatable {
    package var email: String

    package init(email: String) {
        self.email = email
    }
}
