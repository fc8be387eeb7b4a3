import Contracts
import Foundation
import ServiceKit

/// `PUT /v1/users/me/profile` fields, from JSON or from multipart text fields.
struct ProfileUpdate: Decodable, Sendable {
    var nick: String?
    var phoneNum: String?
    var birthDay: String?
    var gender: String?
    var info1: String?
    var info2: String?
    var info3: String?
    var info4: String?
    var info5: String?
    var name: String?
    var introduction: String?
    var description: String?
    var hashTags: [String]?

    init() {}

    /// Multipart sends every value as text; `hashTags` may come repeated, as a JSON array or
    /// comma-separated.
    init(form: MultipartForm) {
        nick = form.field("nick")
        phoneNum = form.field("phoneNum")
        birthDay = form.field("birthDay")
        gender = form.field("gender")
        info1 = form.field("info1")
        info2 = form.field("info2")
        info3 = form.field("info3")
        info4 = form.field("info4")
        info5 = form.field("info5")
        name = form.field("name")
        introduction = form.field("introduction")
        description = form.field("description")
        let tagFields = form.parts.filter { $0.filename == nil && ($0.name == "hashTags" || $0.name == "hashTags[]") }.map { String(buffer: $0.body) }
        if tagFields.count == 1, let json = try? JSONDecoder().decode([String].self, from: Data(tagFields[0].utf8)) {
            hashTags = json
        } else if tagFields.count == 1 {
            hashTags = tagFields[0].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        } else if !tagFields.isEmpty {
            hashTags = tagFields
        }
    }

    func apply(to user: inout UserRecord) throws {
        if let nick { user.nick = try AccountRules.nick(nick); user.nickKey = user.nick.lowercased() }
        if let value = try AccountRules.text(phoneNum, field: "phoneNum", max: 200) { user.phoneNum = value }
        if let value = try AccountRules.text(birthDay, field: "birthDay", max: 200) { user.birthDay = value }
        if let value = try AccountRules.text(gender, field: "gender", max: 200) { user.gender = value }
        if let value = try AccountRules.text(info1, field: "info1", max: 200) { user.info1 = value }
        if let value = try AccountRules.text(info2, field: "info2", max: 200) { user.info2 = value }
        if let value = try AccountRules.text(info3, field: "info3", max: 200) { user.info3 = value }
        if let value = try AccountRules.text(info4, field: "info4", max: 200) { user.info4 = value }
        if let value = try AccountRules.text(info5, field: "info5", max: 200) { user.info5 = value }
        if let value = try AccountRules.text(name, field: "name", max: 100) { user.name = value }
        if let value = try AccountRules.text(introduction, field: "introduction", max: 1000) { user.introduction = value }
        if let value = try AccountRules.text(description, field: "description", max: 2000) { user.description = value }
        if let value = try AccountRules.hashTags(hashTags) { user.tags = value }
    }
}
