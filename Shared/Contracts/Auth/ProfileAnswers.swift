/// `Profile` of API.md §1. Optional strings are `""` when unset, never null.
public struct ProfileAnswer: Codable, Sendable, Equatable {
    public var userID: String
    public var email: String
    public var nick: String
    public var profileImage: String?
    public var phoneNum: String
    public var gender: String
    public var birthDay: String
    public var info1: String
    public var info2: String
    public var info3: String
    public var info4: String
    public var info5: String
    public var followers: [UserInfo]
    public var following: [UserInfo]
    public var posts: [String]
    public var name: String
    public var introduction: String
    public var description: String
    public var hashTags: [String]

    public init(
        userID: String, email: String, nick: String, profileImage: String?, phoneNum: String, gender: String, birthDay: String,
        info: [String], followers: [UserInfo], following: [UserInfo], posts: [String], name: String, introduction: String,
        description: String, hashTags: [String]
    ) {
        self.userID = userID
        self.email = email
        self.nick = nick
        self.profileImage = profileImage
        self.phoneNum = phoneNum
        self.gender = gender
        self.birthDay = birthDay
        let padded = info + Array(repeating: "", count: max(0, 5 - info.count))
        (info1, info2, info3, info4, info5) = (padded[0], padded[1], padded[2], padded[3], padded[4])
        self.followers = followers
        self.following = following
        self.posts = posts
        self.name = name
        self.introduction = introduction
        self.description = description
        self.hashTags = hashTags
    }

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case email, nick, profileImage, phoneNum, gender, birthDay, info1, info2, info3, info4, info5
        case followers, following, posts, name, introduction, description, hashTags
    }
}

public struct FollowAnswer: Codable, Sendable, Equatable {
    public var nick: String
    public var opponentNick: String
    public var followingStatus: Bool

    public init(nick: String, opponentNick: String, followingStatus: Bool) {
        self.nick = nick
        self.opponentNick = opponentNick
        self.followingStatus = followingStatus
    }

    enum CodingKeys: String, CodingKey {
        case nick
        case opponentNick = "opponent_nick"
        case followingStatus = "following_status"
    }
}

public struct BlockAnswer: Codable, Sendable, Equatable {
    public var blocked: Bool

    public init(blocked: Bool) {
        self.blocked = blocked
    }
}

public struct ReportRequest: Codable, Sendable {
    public var targetType: String
    public var targetID: String
    public var reason: String

    public init(targetType: String, targetID: String, reason: String) {
        self.targetType = targetType
        self.targetID = targetID
        self.reason = reason
    }

    enum CodingKeys: String, CodingKey {
        case targetType = "target_type"
        case targetID = "target_id"
        case reason
    }
}

public struct ReportAnswer: Codable, Sendable, Equatable {
    public var reportID: String

    public init(reportID: String) {
        self.reportID = reportID
    }

    enum CodingKeys: String, CodingKey {
        case reportID = "report_id"
    }
}

public struct AttendanceAnswer: Codable, Sendable, Equatable {
    public var attendanceCount: Int

    public init(attendanceCount: Int) {
        self.attendanceCount = attendanceCount
    }
}

/// `{"data": [...]}` without a cursor.
public struct DataList<Element: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    public var data: [Element]

    public init(data: [Element]) {
        self.data = data
    }
}
