import Contracts
import FileStorage
import Foundation
import ServiceKit

/// Reading the fields from multipart text fields, and applying them to a user.
extension ProfileUpdate {
    /// Multipart sends every value as text; `hashTags` may come repeated, as a JSON array or
    /// comma-separated.
    init(form: MultipartForm) {
        self.init()
        nick = form.field("nick")
        for (source, _, field, _) in Self.textFields { self[keyPath: source] = form.field(field) }
        let tagFields = form.parts.filter { $0.filename == nil && ($0.name == "hashTags" || $0.name == "hashTags[]") }.map { String(buffer: $0.body) }
        if tagFields.count == 1, let json = try? JSONDecoder().decode([String].self, from: Data(tagFields[0].utf8)) {
            hashTags = json
        } else if tagFields.count == 1 {
            hashTags = tagFields[0].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        } else if !tagFields.isEmpty {
            hashTags = tagFields
        }
    }

    /// Free-text fields: where each goes and how long it may be.
    private static var textFields: [(WritableKeyPath<ProfileUpdate, String?>, WritableKeyPath<UserRecord, String>, String, Int)] {
        [
            (\.phoneNum, \.phoneNum, "phoneNum", 200), (\.birthDay, \.birthDay, "birthDay", 200), (\.gender, \.gender, "gender", 200),
            (\.info1, \.info1, "info1", 200), (\.info2, \.info2, "info2", 200), (\.info3, \.info3, "info3", 200),
            (\.info4, \.info4, "info4", 200), (\.info5, \.info5, "info5", 200), (\.name, \.name, "name", 100),
            (\.introduction, \.introduction, "introduction", 1000), (\.description, \.description, "description", 2000),
        ]
    }

    func apply(to user: inout UserRecord) throws {
        if let nick {
            user.nick = try AccountRules.nick(nick)
            user.nickKey = user.nick.lowercased()
        }
        for (source, target, field, limit) in Self.textFields {
            if let value = try AccountRules.text(self[keyPath: source], field: field, max: limit) { user[keyPath: target] = value }
        }
        if let value = try AccountRules.hashTags(hashTags) { user.tags = value }
    }
}
