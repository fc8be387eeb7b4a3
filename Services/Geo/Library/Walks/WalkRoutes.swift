import Contracts
import Hummingbird
import ServiceKit

/// `/v1/walks` (API.md §4).
struct WalkRoutes: Sendable {
    let walks: WalkService

    func register(protected: ServiceApplication.Group) {
        protected.post("/v1/walks") { request, context -> WalkAnswer in
            try await walks.create(try context.requireUser(), try await request.decode(as: WalkRequest.self, context: context))
        }
        protected.get("/v1/walks") { request, context -> CursorPage<WalkAnswer> in
            let query = request.uri.queryParameters
            return try await walks.walks(
                caller: try context.requireUser(), next: query["next"].map(String.init),
                limit: try PageLimit.parse(query["limit"].map(String.init)))
        }
        protected.get("/v1/walks/{walk_id}") { _, context -> WalkAnswer in
            try await walks.walk(try context.parameters.require("walk_id"), caller: try context.requireUser())
        }
    }
}
