import Contracts
import FileStorage
import HTTPTypes
import Hummingbird
import ServiceKit

/// §2 filter marketplace: filters, their images, likes and lists.
struct FilterRoutes: Sendable {
    let filters: FilterService
    let images: FileStore

    func register(internal group: ServiceApplication.Group, protected: ServiceApplication.Group) {
        images.registerServing(on: group)
        protected.post("/v1/filters/files") { request, context -> FilesAnswer in
            let parts = try await MultipartForm.read(request, limits: .uploads).uploadedFiles(named: "files")
            return FilesAnswer(files: try await images.store(parts, appID: try context.requireAppID()))
        }
        protected.post("/v1/filters") { request, context -> FilterDetail in
            try await filters.create(
                try context.requireUser(), try await request.decode(as: FilterRequest.self, context: context), requestID: context.requestID)
        }
        list(protected, "/v1/filters") { _, _ in .all }
        list(protected, "/v1/filters/users/{user_id}") { _, context in .user(try context.parameters.require("user_id")) }
        list(protected, "/v1/filters/likes/me") { _, _ in .likedByMe }
        ItemRoutes(service: filters, path: "/v1/filters/{filter_id}", parameter: "filter_id").register(on: protected)
        protected.post("/v1/filters/{filter_id}/like") { request, context -> LikeStatus in
            let body = try await request.decode(as: LikeStatus.self, context: context)
            return try await filters.like(try context.parameters.require("filter_id"), caller: try context.requireUser(), status: body.likeStatus)
        }
    }

    private func list(
        _ group: ServiceApplication.Group, _ path: RouterPath,
        _ scope: @escaping @Sendable (Request, GlintRequestContext) throws -> FilterPageQuery.Scope
    ) {
        group.get(path) { request, context -> CursorPage<FilterSummary> in
            let query = request.uri.queryParameters
            let orderText = query["order_by"].map(String.init) ?? "latest"
            guard let order = FilterPageQuery.Order(rawValue: orderText.isEmpty ? "latest" : orderText) else {
                throw ServiceError.badRequest("order_by must be latest, likes or purchase")
            }
            return try await filters.list(
                try scope(request, context), order: order, category: query["category"].map(String.init), next: query["next"].map(String.init),
                limit: try PageLimit.parse(query["limit"].map(String.init)), caller: try context.requireUser(), requestID: context.requestID
            )
        }
    }
}
