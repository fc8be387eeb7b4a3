import Contracts
import Hummingbird
import ServiceKit

/// API.md §9's `page` (from 1) and `pageSize` (default 10, at most 100).
struct PageRequest: Sendable, Equatable {
    var page: Int
    var size: Int

    static let maxSize = 100

    var offset: Int { (page - 1) * size }

    static func parse(_ request: Request) throws -> PageRequest {
        try parse(page: request.uri.queryParameters["page"].map(String.init), pageSize: request.uri.queryParameters["pageSize"].map(String.init))
    }

    static func parse(page: String?, pageSize: String?) throws -> PageRequest {
        PageRequest(
            page: try number(page, "page", fallback: 1, max: 1_000_000), size: min(try number(pageSize, "pageSize", fallback: 10, max: .max), maxSize)
        )
    }

    func pagination(total: Int) -> Pagination {
        Pagination(currentPage: page, pageSize: size, totalItems: total)
    }

    private static func number(_ text: String?, _ name: String, fallback: Int, max: Int) throws -> Int {
        guard let text, !text.isEmpty else { return fallback }
        guard let value = Int(text), (1...max).contains(value) else { throw ServiceError.badRequest("\(name) must be a whole number from 1") }
        return value
    }
}
