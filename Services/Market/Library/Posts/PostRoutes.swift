import Contracts
import FileStorage
import HTTPTypes
import Hummingbird
import ServiceKit

/// §2 community posts, their images, and what other services ask of posts.
struct PostRoutes: Sendable {
    let posts: PostService
    let images: FileStore
    private static let productID = HTTPField.Name("ProductId")!

    func register(internal group: ServiceApplication.Group, protected: ServiceApplication.Group) {
        group.serve(InternalEndpoints.Market.postIDs) { userID, _, context in
            UserIDList(userIDs: try await posts.postIDs(of: userID, appID: try context.requireAppID()))
        }
        images.registerServing(on: group)
        // Internal (secret-guarded) but behind the caller's token, which geo-svc passes on.
        protected.serve(InternalEndpoints.Market.postBatch) { _, body, context in
            guard body.postIDs.count <= PostBatchRequest.maxCount else {
                throw ServiceError.badRequest("at most \(PostBatchRequest.maxCount) post ids")
            }
            return DataList(data: try await posts.posts(body.postIDs, caller: try context.requireUser(), requestID: context.requestID))
        }
        protected.post("/v1/posts/files") { request, context -> FilesAnswer in
            let parts = try await MultipartForm.read(request, limits: .uploads).uploadedFiles(named: "files")
            return FilesAnswer(files: try await images.store(parts, appID: try context.requireAppID()))
        }
        protected.post("/v1/posts") { request, context -> PostAnswer in
            let body = try await request.decode(as: PostFields.self, context: context)
            return try await posts.create(try context.requireUser(), body, productID: request.headers[Self.productID], requestID: context.requestID)
        }
        feed(protected, "/v1/posts") { _, _ in .all }
        feed(protected, "/v1/posts/users/{user_id}") { _, context in .user(try context.parameters.require("user_id")) }
        feed(protected, "/v1/posts/likes/me") { _, _ in .liked(kind: 1) }
        feed(protected, "/v1/posts/likes-2/me") { _, _ in .liked(kind: 2) }
        feed(protected, "/v1/posts/hashtags") { request, _ in
            guard let tag = request.uri.queryParameters["hashTag"].map(String.init), (1...50).contains(tag.count) else {
                throw ServiceError.badRequest("hashTag required")
            }
            return .hashTag(tag.hasPrefix("#") ? String(tag.dropFirst()) : tag)
        }
        protected.get("/v1/posts/search") { request, context -> DataList<PostAnswer> in
            try await posts.search(
                title: request.uri.queryParameters["title"].map(String.init), caller: try context.requireUser(), requestID: context.requestID)
        }
        ItemRoutes(service: posts, path: "/v1/posts/{post_id}", parameter: "post_id").register(on: protected)
        for (path, kind) in [("like", 1), ("like-2", 2)] {
            protected.post("/v1/posts/{post_id}/\(path)") { request, context -> LikeStatus in
                let body = try await request.decode(as: LikeStatus.self, context: context)
                return try await posts.like(
                    try context.parameters.require("post_id"), kind: kind, caller: try context.requireUser(), status: body.likeStatus)
            }
        }
    }

    /// A cursor list: `next`, `limit`, repeatable `category`, and `product_id` (the `ProductId`
    /// posts were created with).
    private func feed(
        _ group: ServiceApplication.Group, _ path: RouterPath, _ which: @escaping @Sendable (Request, GlintRequestContext) throws -> PostFeed
    ) {
        group.get(path) { request, context -> EncodedJSON<CursorPage<PostAnswer>> in
            let query = request.uri.queryParameters
            return try await posts.feed(
                try which(request, context), caller: try context.requireUser(),
                categories: query.getAll("category").map { String($0) }.filter { !$0.isEmpty },
                productID: query["product_id"].map(String.init),
                after: try FeedCursor.parse(query["next"].map(String.init)), limit: try PageLimit.parse(query["limit"].map(String.init)),
                requestID: context.requestID
            )
        }
    }
}
