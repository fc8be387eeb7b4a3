import Contracts
import HTTPTypes
import Hummingbird
import ServiceKit

/// §2 filter marketplace and orders, and the order endpoints payment-verify-svc uses.
struct FilterRoutes: Sendable {
    let filters: FilterService
    let orders: OrderService
    let images: FileStore

    func register(internal group: ServiceApplication.Group, protected: ServiceApplication.Group) {
        images.registerServing(on: group)
        group.serve(InternalEndpoints.Market.order) { code, _, context in
            try await orders.find(code: code, appID: context.appID)
        }
        group.serve(InternalEndpoints.Market.orderPaid) { code, _, context in
            try await orders.markPaid(code: code, appID: try context.requireAppID(), requestID: context.requestID)
        }
        protected.post("/v1/filters/files") { request, _ -> FilesAnswer in
            let files = try await MultipartForm.read(request, limits: .uploads).files(named: "files")
            guard !files.isEmpty else { throw ServiceError.badRequest("no files") }
            return FilesAnswer(files: try images.store(files))
        }
        protected.post("/v1/filters") { request, context -> FilterDetail in
            try await filters.create(try context.requireUser(), try await request.decode(as: FilterRequest.self, context: context), requestID: context.requestID)
        }
        list(protected, "/v1/filters") { _, _ in .all }
        list(protected, "/v1/filters/users/{user_id}") { _, context in .user(try context.parameters.require("user_id")) }
        list(protected, "/v1/filters/likes/me") { _, _ in .likedByMe }
        protected.get("/v1/filters/{filter_id}") { _, context -> FilterDetail in
            try await filters.detail(try context.parameters.require("filter_id"), caller: try context.requireUser(), requestID: context.requestID)
        }
        protected.put("/v1/filters/{filter_id}") { request, context -> FilterDetail in
            let body = try await request.decode(as: FilterRequest.self, context: context)
            return try await filters.update(try context.parameters.require("filter_id"), caller: try context.requireUser(), body, requestID: context.requestID)
        }
        protected.delete("/v1/filters/{filter_id}") { _, context -> EmptyAnswer in
            try await filters.delete(try context.parameters.require("filter_id"), caller: try context.requireUser())
            return EmptyAnswer()
        }
        protected.post("/v1/filters/{filter_id}/like") { request, context -> LikeStatus in
            let body = try await request.decode(as: LikeStatus.self, context: context)
            return try await filters.like(try context.parameters.require("filter_id"), caller: try context.requireUser(), status: body.likeStatus)
        }
        protected.post("/v1/filters/{filter_id}/comments") { request, context -> CommentAnswer in
            let body = try await request.decode(as: CommentRequest.self, context: context)
            return try await filters.comment(try context.parameters.require("filter_id"), caller: try context.requireUser(), body, requestID: context.requestID)
        }
        protected.put("/v1/filters/{filter_id}/comments/{comment_id}") { request, context -> CommentAnswer in
            let body = try await request.decode(as: CommentRequest.self, context: context)
            let changed = try await filters.changeComment(try context.parameters.require("filter_id"), commentID: try context.parameters.require("comment_id"),
                                                          caller: try context.requireUser(), content: body.content, requestID: context.requestID)
            guard let changed else { throw ServiceError(.internalError, "comment vanished") }
            return changed
        }
        protected.delete("/v1/filters/{filter_id}/comments/{comment_id}") { _, context -> EmptyAnswer in
            _ = try await filters.changeComment(try context.parameters.require("filter_id"), commentID: try context.parameters.require("comment_id"),
                                                caller: try context.requireUser(), content: nil, requestID: context.requestID)
            return EmptyAnswer()
        }
        protected.post("/v1/orders") { request, context -> OrderAnswer in
            try await orders.create(try context.requireUser(), try await request.decode(as: OrderRequest.self, context: context))
        }
        protected.get("/v1/orders") { _, context -> DataList<PaidOrderItem> in
            try await orders.paidOrders(try context.requireUser(), requestID: context.requestID)
        }
    }

    private func list(_ group: ServiceApplication.Group, _ path: RouterPath, _ scope: @escaping @Sendable (Request, GlintRequestContext) throws -> FilterService.Scope) {
        group.get(path) { request, context -> CursorPage<FilterSummary> in
            let query = request.uri.queryParameters
            let orderText = query["order_by"].map(String.init) ?? "latest"
            guard let order = FilterService.Order(rawValue: orderText.isEmpty ? "latest" : orderText) else {
                throw ServiceError.badRequest("order_by must be latest, likes or purchase")
            }
            return try await filters.list(
                try scope(request, context), order: order, category: query["category"].map(String.init), next: query["next"].map(String.init),
                limit: try PageLimit.parse(query["limit"].map(String.init)), caller: try context.requireUser(), requestID: context.requestID
            )
        }
    }
}
