/// `Profile` of API.md §1. Optional strings are `""` when unset, never null.
package struct ProfileAnswer: Codable, Sendable, Equatable {
    package var userID: String
    package var email: String
    package var nick: String
    package var profileImage: String?
    package var phoneNum: String
    package var gender: String
    package var birthDay: String
    package var info1: String
    package var info2: String
    package var info3: String
    package var info4: String
    package var info5: String
    package var followers: [UserInfo]
    package var following: [UserInfo]
    package var posts: [String]
    package var name: String
    package var introduction: String
    package var description: String
    package var hashTags: [String]

    package init(
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

package struct FollowAnswer: Codable, Sendable, Equatable {
    package var nick: String
    package var opponentNick: String
    package var followingStatus: Bool

    package init(nick: String, opponentNick: String, followingStatus: Bool) {
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

package struct BlockAnswer: Codable, Sendable, Equatable {
    package var blocked: Bool

    package init(blocked: Bool) {
        self.blocked = blocked
    }
}

package struct ReportRequest: Codable, Sendable {
    package var targetType: String
    package var targetID: String
    package var reason: String

    package init(targetType: String, targetID: String, reason: String) {
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

package struct ReportAnswer: Codable, Sendable, Equatable {
    package var reportID: String

    package init(reportID: String) {
        self.reportID = reportID
    }

    enum CodingKeys: String, CodingKey {
        case reportID = "report_id"
    }
}

package struct AttendanceAnswer: Codable, Sendable, Equatable {
    package var attendanceCount: Int

    package init(attendanceCount: Int) {
        self.attendanceCount = attendanceCount
    }
}

/// `{"data": [...]}` without a cursor.
package struct DataList<Element: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    package var data: [Element]

    package init(data: [Element]) {
        self.data = data
    }
}
