/// `PUT /v1/users/me/profile` fields (API.md §1); every one optional, absent = unchanged.
package struct ProfileUpdate: Codable, Sendable {
    package var nick: String?
    package var phoneNum: String?
    package var birthDay: String?
    package var gender: String?
    package var info1: String?
    package var info2: String?
    package var info3: String?
    package var info4: String?
    package var info5: String?
    package var name: String?
    package var introduction: String?
    package var description: String?
    package var hashTags: [String]?

    package init() {}
}
