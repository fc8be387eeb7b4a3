import Contracts
import FileStorage
import Foundation
import ServiceKit

/// API.md §9's limits on a story: 1–10 quotes of at most 500 characters, content up to 1000,
/// at most 10 distinct keywords of at most 8 characters, at most 5 images.
enum StoryRules {
    static let maxThemes = 50

    static func quotes(_ quotes: [StoryQuote]?) throws -> [StoryQuote] {
        guard let quotes, (1...10).contains(quotes.count) else { throw ServiceError.badRequest("1 to 10 quotes are required") }
        return try quotes.map { quote in
            let text = try FieldRule.text(quote.quote, "quote", 1...500, trimming: .whitespacesAndNewlines)!
            if let page = quote.page, !(0...100_000).contains(page) { throw ServiceError.badRequest("page must be from 0 to 100000") }
            return StoryQuote(quote: text, page: quote.page)
        }
    }

    /// Empty clears it.
    static func content(_ content: String?) throws -> String? {
        let text = try FieldRule.text(content ?? "", "content", 0...1000, trimming: .whitespacesAndNewlines)!
        return text.isEmpty ? nil : text
    }

    /// Blank ones dropped, repeats kept once (in their first place).
    static func keywords(_ keywords: [String]) throws -> [String] {
        var seen = Set<String>()
        let distinct = try keywords.compactMap { raw -> String? in
            let keyword = try FieldRule.text(raw, "keyword", 0...8, trimming: .whitespacesAndNewlines)!
            return keyword.isEmpty || !seen.insert(keyword).inserted ? nil : keyword
        }
        guard distinct.count <= 10 else { throw ServiceError.badRequest("at most 10 keywords") }
        return distinct
    }

    static func themeIDs(_ ids: [String]) throws -> [String] {
        var seen = Set<String>()
        let distinct = ids.filter { seen.insert($0).inserted }
        guard distinct.count <= maxThemes, distinct.allSatisfy(ObjectID.isValid) else {
            throw ServiceError.badRequest("folderIds must be folder ids")
        }
        return distinct
    }

    static func images(_ parts: [MultipartForm.Part]) throws -> [MultipartForm.Part] {
        guard parts.count <= 5 else { throw ServiceError.badRequest("at most 5 images") }
        return parts
    }

    /// What a story points at, checked by each store inside its write from what it read there: a
    /// book of the app, and folders (themes) of the story's writer only. `themeOwners` holds the
    /// writer of each of the story's themes found in the app.
    static func checkReferences(of story: StoryRecord, bookFound: Bool, themeOwners: [String: String]) throws {
        guard bookFound else { throw StoreError.notFound("no such book") }
        guard story.themeIDs.allSatisfy({ themeOwners[$0] == story.userID }) else { throw StoreError.notFound("no such folder of yours") }
    }
}
