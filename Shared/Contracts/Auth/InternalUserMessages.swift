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

/// auth-svc → market-svc: what a reader hid (API.md §9): users they blocked or reported, and
/// book stories they reported.
package struct HiddenContent: Codable, Sendable, Equatable {
    package var userIDs: [String]
    package var storyIDs: [String]

    package init(userIDs: [String], storyIDs: [String]) {
        (self.userIDs, self.storyIDs) = (userIDs, storyIDs)
    }

    enum CodingKeys: String, CodingKey {
        case userIDs = "user_ids"
        case storyIDs = "story_ids"
    }
}

/// auth-svc → market-svc (outbox): an account revoked (API.md §9 `/auth/revoke`); its content
/// goes. Idempotent: a repeated delivery finds nothing left.
package struct AccountRevokedEvent: Codable, Sendable, Equatable {
    package static let topic = "market.account-revoked"
    package var appID: String
    package var userID: String

    package init(appID: String, userID: String) {
        (self.appID, self.userID) = (appID, userID)
    }

    enum CodingKeys: String, CodingKey {
        case appID = "app_id"
        case userID = "user_id"
    }
}
