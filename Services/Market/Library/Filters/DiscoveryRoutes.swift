import Contracts
import Hummingbird
import ServiceClients
import ServiceKit

/// Hot-trend, today's filter, today's author and the main banners (API.md §2).
struct DiscoveryRoutes: Sendable {
    let filters: FilterService
    let trends: TrendService
    let users: AuthClient
    let banners: [Banner]

    func register(protected: ServiceApplication.Group) {
        protected.get("/v1/filters/hot-trend") { _, context -> DataList<FilterSummary> in
            let caller = try context.requireUser()
            return DataList(data: try await hot(caller, requestID: context.requestID))
        }
        protected.get("/v1/filters/today-filter") { _, context -> TodayFilterAnswer in
            let caller = try context.requireUser()
            guard let id = try await trends.hotFilterIDs(appID: caller.appID).first else { throw ServiceError.notFound("no filters yet") }
            return FilterRenderer.today(try await filters.find(id, caller: caller))
        }
        protected.get("/v1/users/today-author") { _, context -> TodayAuthorAnswer in
            let caller = try context.requireUser()
            let hot = try await hot(caller, requestID: context.requestID)
            guard let authorID = hot.first?.creator.userID,
                let author = try await users.users([authorID], caller.appID, context.requestID)[authorID]
            else { throw ServiceError.notFound("no author yet") }
            let theirs = try await filters.list(
                .user(authorID), order: .latest, category: nil, next: nil, limit: 10, caller: caller, requestID: context.requestID)
            return TodayAuthorAnswer(author: .init(author), filters: theirs.data)
        }
        protected.get("/v1/banners/main") { _, _ -> DataList<Banner> in
            DataList(data: banners)
        }
    }

    private func hot(_ caller: AuthenticatedUser, requestID: String) async throws -> [FilterSummary] {
        let ids = try await trends.hotFilterIDs(appID: caller.appID)
        guard !ids.isEmpty else { return [] }
        let records = try await filters.records(ids, appID: caller.appID)
        return try await filters.summaries(records, caller: caller, requestID: requestID)
    }
}
