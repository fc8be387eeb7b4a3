/// auth-svc's internal answers for other services.
public struct UserLookupRequest: Codable, Sendable, Equatable {
    public var userIDs: [String]

    public init(userIDs: [String]) {
        self.userIDs = userIDs
    }

    enum CodingKeys: String, CodingKey {
        case userIDs = "user_ids"
    }
}

public struct UserLookupAnswer: Codable, Sendable, Equatable {
    /// Only the users that exist (in the caller's app), in no particular order.
    public var users: [UserInfoFull]

    public init(users: [UserInfoFull]) {
        self.users = users
    }
}

public struct UserIDList: Codable, Sendable, Equatable {
    public var userIDs: [String]

    public init(userIDs: [String]) {
        self.userIDs = userIDs
    }

    enum CodingKeys: String, CodingKey {
        case userIDs = "user_ids"
    }
}
