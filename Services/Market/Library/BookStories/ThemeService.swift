import Contracts
import FileStorage
import Foundation
import ServiceKit

/// API.md §9 themes (folders): name 1–20, description up to 100, an optional image; a private
/// theme is its author's alone. Removing one leaves its stories.
struct ThemeService: AuthoredContent {
    let themes: any ThemeStore
    let stories: StoryService
    let renderer: BookStoryRenderer
    let images: FileStore
    static let noun = "folder"

    func create(_ fields: ThemeFields, image parts: [MultipartForm.Part], by reader: Reader) async throws -> QuotehubTheme {
        let userID = try reader.requireUser()
        let now = GlintDate.nowMilliseconds()
        var theme = ThemeRecord(
            id: ObjectID.generate(), appID: reader.appID, userID: userID, name: try Self.name(fields.name),
            description: try Self.description(fields.description),
            image: nil, isPublic: fields.isPublic ?? true, createdAt: now, updatedAt: now
        )
        try await images.storing(Array(parts.prefix(1)), appID: reader.appID) { paths in
            theme.image = paths.first
            try await themes.insert(theme)
        }
        return try await render([theme], for: reader)[0]
    }

    /// Absent fields stay; an empty description clears it; a new image replaces the old.
    func update(_ id: String, _ fields: ThemeFields, image parts: [MultipartForm.Part], by reader: Reader) async throws -> QuotehubTheme {
        let before = try await owned(id, by: reader)
        var theme = before
        if fields.name != nil { theme.name = try Self.name(fields.name) }
        if fields.description != nil { theme.description = try Self.description(fields.description) }
        if let isPublic = fields.isPublic { theme.isPublic = isPublic }
        theme.updatedAt = GlintDate.nowMilliseconds()
        try await images.replacing(before.files, with: Array(parts.prefix(1)), appID: reader.appID) { paths in
            if let newImage = paths?.first { theme.image = newImage }
            try await themes.update(theme)
        }
        return try await render([theme], for: reader)[0]
    }

    func render(_ records: [ThemeRecord], for reader: Reader) async throws -> [QuotehubTheme] {
        try await renderer.themes(records, for: reader)
    }

    func forget(_ theme: ThemeRecord) async throws {
        try await themes.delete(theme)
    }

    func list(_ scope: StoryQuery.Scope, page: PageRequest, for reader: Reader) async throws -> PageEnvelope<QuotehubTheme> {
        var hidden = reader.hidden
        if case .author(let userID, _) = scope, reader.isOwner(of: userID) { hidden = .nothing }
        let found = try await themes.page(ThemeQuery(appID: reader.appID, scope: scope, hidden: hidden, takenDown: reader.hiddenThemes, page: page))
        return PageEnvelope(
            message: "테마 목록을 불러왔습니다.", data: try await renderer.themes(found.themes, for: reader), pagination: page.pagination(total: found.total))
    }

    /// The stories of a theme the reader may see (of `author` when given), as that theme shows them:
    /// the author sees all of theirs, others the public ones.
    func stories(in id: String, author: String?, page: PageRequest, for reader: Reader) async throws -> PageEnvelope<QuotehubStory> {
        let theme = try await visible(id, to: reader)
        if let author, author != theme.userID { throw ServiceError.notFound("테마를 찾을 수 없습니다.") }
        return try await stories.list(.author(theme.userID, privateToo: reader.isOwner(of: theme.userID)), themeID: theme.id, page: page, for: reader)
    }

    /// 400 for a malformed id; 404 for a missing, private (to others) or hidden theme.
    func visible(_ id: String, to reader: Reader) async throws -> ThemeRecord {
        guard ObjectID.isValid(id) else { throw ServiceError.badRequest("invalid folder id") }
        guard let theme = try await themes.theme(id: id, appID: reader.appID),
            theme.isPublic || reader.isOwner(of: theme.userID), !reader.hidden.hides(user: theme.userID), !reader.hiddenThemes.contains(theme.id)
        else {
            throw ServiceError.notFound("테마를 찾을 수 없습니다.")
        }
        return theme
    }

    private static func name(_ name: String?) throws -> String {
        try FieldRule.text(name ?? "", "name", 1...20, trimming: .whitespacesAndNewlines)!
    }

    private static func description(_ description: String?) throws -> String? {
        let text = try FieldRule.text(description ?? "", "description", 0...100, trimming: .whitespacesAndNewlines)!
        return text.isEmpty ? nil : text
    }
}
