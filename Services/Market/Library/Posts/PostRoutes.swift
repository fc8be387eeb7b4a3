import Contracts
import HTTPTypes
import Hummingbird
import ServiceKit

/// §2 community posts (first part: create, read, feed) and the ids profiles list.
struct PostRoutes: Sendable {
    let posts: PostService
    private static let productID = HTTPField.Name("ProductId")!

    func register(internal group: ServiceApplication.Group, protected: ServiceApplication.Group) {
        protected.post("/v1/posts") { request, context -> PostAnswer in
            let body = try await request.decode(as: PostCreateRequest.self, context: context)
            return try await posts.create(try context.requireUser(), body, productID: request.headers[Self.productID], requestID: context.requestID)
        }
        protected.get("/v1/posts") { request, context -> CursorPage<PostAnswer> in
            let query = request.uri.queryParameters
            return try await posts.feed(
                caller: try context.requireUser(), categories: query.getAll("category").map { String($0) }.filter { !$0.isEmpty },
                cursor: try FeedCursor.parse(query["next"].map(String.init)), limit: try FeedCursor.limit(query["limit"].map(String.init)),
                requestID: context.requestID
            )
        }
        protected.get("/v1/posts/{post_id}") { _, context -> PostAnswer in
            try await posts.post(try context.parameters.require("post_id"), caller: try context.requireUser(), requestID: context.requestID)
        }
        group.get("/internal/users/{user_id}/post-ids") { _, context -> UserIDList in
            UserIDList(userIDs: try await posts.postIDs(of: try context.parameters.require("user_id"), appID: try context.requireAppID()))
        }
    }
}
