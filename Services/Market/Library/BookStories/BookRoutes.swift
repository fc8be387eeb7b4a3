import Contracts
import Hummingbird
import ServiceKit

/// `GET /book/search` and `/book/todayBooks` (guest routes of quotehub apps).
struct BookRoutes: Sendable {
    let books: BookService
    let readers: ReaderResolver

    func register(on guest: ServiceApplication.Group) {
        guest.get("/book/search") { request, context -> Envelope<BookSearchAnswer> in
            let reader = try await readers.reader(context)
            let query = request.uri.queryParameters
            let found = try await books.search(query: query["query"].map(String.init), page: query["page"].map(String.init), appID: reader.appID)
            return Envelope(message: "책 검색 결과입니다.", data: found)
        }
        guest.get("/book/todayBooks") { _, context -> Envelope<[QuotehubBook]> in
            Envelope(message: "오늘의 책입니다.", data: try await books.today(appID: try readers.reader(context).appID))
        }
    }
}
