import AsyncHTTPClient
import Foundation
import NIOCore
import ServiceKit

/// Kakao's book search (`GET /v3/search/book`, header `Authorization: KakaoAK <REST key>`) over
/// real HTTP (`MARKET_KAKAO_BOOK_URL`). Whatever goes wrong there is the provider's failure: 502.
struct KakaoBookClient: Sendable {
    /// One page of Kakao's answer, as documented.
    struct Page: Codable, Sendable {
        struct Document: Codable, Sendable {
            var title: String
            var contents: String?
            var url: String?
            var isbn: String?
            var datetime: String?
            var authors: [String]?
            var publisher: String?
            var translators: [String]?
            var thumbnail: String?
        }

        struct Meta: Codable, Sendable {
            var is_end: Bool
            var pageable_count: Int
            var total_count: Int
        }

        var documents: [Document]
        var meta: Meta
    }

    var search: @Sendable (_ query: String, _ page: Int, _ size: Int) async throws -> Page

    static func live(url: String, restKey: String, http: HTTPClient) -> KakaoBookClient {
        KakaoBookClient { query, page, size in
            guard !restKey.isEmpty else { throw ServiceError(.upstreamFailed, "book search is not set up (MARKET_KAKAO_REST_KEY)") }
            var request = HTTPClientRequest(url: url + "?" + FormEncoding.encode(["query": query, "page": String(page), "size": String(size)]))
            request.headers.add(name: "Authorization", value: "KakaoAK " + restKey)
            let body: ByteBuffer
            do {
                let response = try await http.execute(request, timeout: .seconds(10))
                body = try await response.body.collect(upTo: 4 << 20)
                guard response.status == .ok else { throw ServiceError(.upstreamFailed, "Kakao book search answered \(response.status.code)") }
            } catch let error as ServiceError {
                throw error
            } catch {
                throw ServiceError(.upstreamFailed, "Kakao book search could not be reached")
            }
            guard let page = try? JSONDecoder().decode(Page.self, from: body) else {
                throw ServiceError(.upstreamFailed, "Kakao book search answered something else than a page of books")
            }
            return page
        }
    }

    /// No call expected: the first one fails the running test.
    static let unimplemented = KakaoBookClient { _, _, _ in throw Unimplemented.call("KakaoBookClient.search") }
}
