import Contracts
import Foundation
import ServiceKit

/// A user as stored. Optional profile strings are stored as `""` so answers never carry null.
struct UserRecord: Codable, Equatable, Sendable {
    var id, appID, email, emailKey: String
    var passwordHash: String?
    var nick, nickKey: String
    var phoneNum = "", birthDay = "", gender = ""
    var info1 = "", info2 = "", info3 = "", info4 = "", info5 = ""
    var name = "", introduction = "", description = ""
    var hashTags = "[]"
    var profileImage: String?
    var createdAt, updatedAt: Int64

    enum CodingKeys: String, CodingKey {
        case id, email, nick, gender, info1, info2, info3, info4, info5, name, introduction, description
        case appID = "app_id"
        case emailKey = "email_key"
        case passwordHash = "password_hash"
        case nickKey = "nick_key"
        case phoneNum = "phone_num"
        case birthDay = "birth_day"
        case hashTags = "hash_tags"
        case profileImage = "profile_image"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    init(appID: String, email: String, passwordHash: String?, nick: String, now: Int64) {
        self.id = ObjectID.generate()
        self.appID = appID
        self.email = email
        self.emailKey = email.lowercased()
        self.passwordHash = passwordHash
        self.nick = nick
        self.nickKey = nick.lowercased()
        self.createdAt = now
        self.updatedAt = now
    }

    var tags: [String] {
        get { JSONText.decode(hashTags) ?? [] }
        set { hashTags = JSONText.encode(newValue) }
    }

    var info: UserInfo { UserInfo(userID: id, nick: nick, profileImage: profileImage) }

    var infoFull: UserInfoFull {
        UserInfoFull(
            userID: id, nick: nick, profileImage: profileImage, name: name, introduction: introduction, description: description, hashTags: tags)
    }
}
