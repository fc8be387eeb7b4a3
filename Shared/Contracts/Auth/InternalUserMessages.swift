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
