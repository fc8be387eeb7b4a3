import Contracts
import Foundation
import ServiceKit

/// API.md §9 books: Kakao's search proxied (each result stored, so stories can point at it) and
/// today's books.
struct BookService: Sendable {
    let store: any BookStore
    let kakao: KakaoBookClient
    static let pageSize = 10

    func search(query raw: String?, page rawPage: String?, appID: String) async throws -> BookSearchAnswer {
        let query = try FieldRule.text(raw ?? "", "query", 1...100, trimming: .whitespacesAndNewlines)!
        var page = 1
        if let rawPage, !rawPage.isEmpty {
            // Kakao pages go from 1 to 50.
            guard let value = Int(rawPage), (1...50).contains(value) else { throw ServiceError.badRequest("page must be a number from 1 to 50") }
            page = value
        }
        let found = try await kakao.search(query, page, Self.pageSize)
        let now = GlintDate.nowMilliseconds()
        let stored = try await store.upsert(found.documents.compactMap { BookRecord(kakao: $0, appID: appID, at: now) })
        return BookSearchAnswer(
            documents: stored.map(\.answer),
            meta: BookSearchMeta(isEnd: found.meta.is_end, pageableCount: found.meta.pageable_count, totalCount: found.meta.total_count)
        )
    }

    /// Ten of the stored books, the same all day (in UTC) and others the next.
    func today(appID: String) async throws -> [QuotehubBook] {
        let day = GlintDate.nowMilliseconds() / 86_400_000
        return try await store.sample(appID: appID, day: day, count: 10).map(\.answer)
    }
}
