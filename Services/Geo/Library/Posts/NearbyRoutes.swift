import Contracts
import Foundation
import Hummingbird
import ServiceClients
import ServiceKit

/// Located posts: market-svc's events in, radius searches out.
struct NearbyRoutes: Sendable {
    let nearby: NearbyService
    let market: MarketClient

    func register(internal group: ServiceApplication.Group, protected: ServiceApplication.Group) {
        group.serve(InternalEndpoints.Geo.postLocation) { _, event, _ in
            try await nearby.apply(event)
            return EmptyAnswer()
        }
        protected.get("/v1/posts/geolocation") { request, context -> DataList<PostAnswer> in
            let user = try context.requireUser()
            let query = try NearbyQuery(request.uri.queryParameters, appID: user.appID)
            let found = try await nearby.search(query)
            guard !found.isEmpty else { return DataList(data: []) }
            let authorization = request.headers[.authorization] ?? ""
            let byID = Dictionary(
                try await market.posts(found.map(\.postID), authorization, user.appID, context.requestID).map { ($0.postID, $0) },
                uniquingKeysWith: { first, _ in first })
            // market-svc leaves out what the caller may not see (blocked users, posts deleted since).
            return DataList(
                data: found.compactMap { hit in
                    guard var post = byID[hit.postID] else { return nil }
                    post.distance = (hit.distance * 10).rounded() / 10
                    return post
                })
        }
    }
}
