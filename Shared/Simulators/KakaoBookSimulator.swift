import Foundation
import Hummingbird
import ServiceKit
import Synchronization

/// Kakao's book search (`GET /v3/search/book`, `Authorization: KakaoAK <REST key>`, `query`,
/// `page` 1–50, `size` 1–50) over a small catalogue of Korean classics, answering Kakao's
/// documented `{documents, meta}`. For tests, and for `glint --simulate-kakao` (trying book search
/// without a Kakao key). The ISBNs are made up in the 979-11-90000 block, with valid check digits.
package final class KakaoBookSimulator: Sendable {
    package static let restKey = "sim-kakao-rest-key"

    package struct Document: Codable, Sendable {
        package var title: String
        package var contents: String
        package var url: String
        package var isbn: String
        package var datetime: String
        package var authors: [String]
        package var publisher: String
        package var translators: [String]
        package var price: Int
        package var sale_price: Int
        package var thumbnail: String
        package var status: String
    }

    struct Page: Encodable {
        struct Meta: Encodable { var is_end: Bool; var pageable_count: Int; var total_count: Int }
        var meta: Meta
        var documents: [Document]
    }

    struct Failure: Encodable { var errorType: String; var message: String }

    /// Shared by the handler and the test.
    final class State: Sendable {
        let failures = FailureCountdown()
        let queries = Mutex<[String]>([])
    }

    package let server: LiveServer
    private let state: State

    package var url: String { server.url + "/v3/search/book" }
    /// The next `count` searches answer 500.
    package func fail(next count: Int) { state.failures.set(count) }
    /// Every query asked, in order.
    package var asked: [String] { state.queries.withLock { $0 } }

    package static func start() async throws -> KakaoBookSimulator {
        let state = State()
        let router = Router()
        router.get("/v3/search/book") { request, _ -> Response in
            guard request.headers[.authorization] == "KakaoAK " + restKey else {
                return JSONCoding.response(status: .unauthorized, body: Failure(errorType: "AccessDeniedError", message: "cannot find appKey"))
            }
            if state.failures.take() {
                return JSONCoding.response(
                    status: .internalServerError, body: Failure(errorType: "InternalServerError", message: "temporarily unavailable"))
            }
            let parameters = request.uri.queryParameters
            guard let query = parameters["query"].map(String.init), !query.isEmpty else {
                return JSONCoding.response(status: .badRequest, body: Failure(errorType: "MissingParameter", message: "query parameter required"))
            }
            let page = parameters["page"].flatMap { Int($0) } ?? 1, size = parameters["size"].flatMap { Int($0) } ?? 10
            guard (1...50).contains(page), (1...50).contains(size) else {
                return JSONCoding.response(status: .badRequest, body: Failure(errorType: "InvalidArgument", message: "page and size are 1 to 50"))
            }
            state.queries.withLock { $0.append(query) }
            let needle = query.lowercased()
            let matches = catalogue.filter { book in
                ([book.title, book.publisher] + book.authors).contains { $0.lowercased().contains(needle) }
            }
            let start = min((page - 1) * size, matches.count)
            let shown = Array(matches[start..<min(start + size, matches.count)])
            return JSONCoding.response(
                body: Page(
                    meta: .init(is_end: start + size >= matches.count, pageable_count: matches.count, total_count: matches.count), documents: shown
                ))
        }
        return KakaoBookSimulator(server: try await LiveServer.start(router), state: state)
    }

    private init(server: LiveServer, state: State) {
        (self.server, self.state) = (server, state)
    }

    package func stop() async { await server.stop() }

    /// Title, author, year: public-domain Korean literature.
    static let classics: [(String, String, Int)] = [
        ("진달래꽃", "김소월", 1925), ("님의 침묵", "한용운", 1926), ("하늘과 바람과 별과 시", "윤동주", 1948), ("운수 좋은 날", "현진건", 1924),
        ("메밀꽃 필 무렵", "이효석", 1936), ("무정", "이광수", 1917), ("날개", "이상", 1936), ("삼대", "염상섭", 1931),
        ("탁류", "채만식", 1937), ("상록수", "심훈", 1935), ("봄봄", "김유정", 1935), ("동백꽃", "김유정", 1936),
        ("감자", "김동인", 1925), ("배따라기", "김동인", 1921), ("벙어리 삼룡이", "나도향", 1925), ("물레방아", "나도향", 1925),
        ("빈처", "현진건", 1921), ("B사감과 러브레터", "현진건", 1925), ("오감도", "이상", 1934), ("백치 아다다", "계용묵", 1935),
        ("사랑손님과 어머니", "주요섭", 1935), ("화수분", "전영택", 1925), ("고향", "현진건", 1926), ("광염 소나타", "김동인", 1930),
    ]

    static let catalogue: [Document] = classics.enumerated().map { index, book in
        let isbn = isbn13("97911900\(String(format: "%04d", index + 1))")
        return Document(
            title: book.0, contents: "\(book.1)의 \(book.2)년 작품 「\(book.0)」을 오늘의 표기로 옮긴 판본입니다.",
            url: "https://search.daum.net/search?w=bookpage&isbn=\(isbn)", isbn: isbn, datetime: "2023-0\(index % 9 + 1)-15T00:00:00.000+09:00",
            authors: [book.1], publisher: "글린 고전", translators: [], price: 9_800, sale_price: 8_820,
            thumbnail: "https://search1.kakaocdn.net/thumb/R120x174.q85/?fname=\(isbn)", status: "정상판매"
        )
    }

    /// Twelve digits and the ISBN-13 check digit.
    static func isbn13(_ twelve: String) -> String {
        let sum = twelve.compactMap(\.wholeNumberValue).enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 1 : 3) }
        return twelve + String((10 - sum % 10) % 10)
    }
}
