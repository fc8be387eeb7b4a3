import Contracts
import Hummingbird
import ServiceKit

/// `POST /internal/request-log` (admin-svc): the entries this replica kept, newest first.
struct RequestLogRoutes: Sendable {
    let log: RequestLog

    func register(on group: ServiceApplication.Group) {
        group.serve(InternalEndpoints.Gateway.requestLog) { _, query, _ in
            guard (1...500).contains(query.limit) else { throw ServiceError.badRequest("limit must be 1 to 500") }
            for text in [query.requestId, query.appId, query.userId] where (text?.utf8.count ?? 0) > 64 {
                throw ServiceError.badRequest("a search term is at most 64 characters")
            }
            return log.search(query)
        }
    }
}
