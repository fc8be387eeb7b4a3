import Contracts
import Hummingbird
import ServiceKit

/// A service of items one reads, updates and deletes by id (posts, filters).
protocol ItemService: Sendable {
    associatedtype Update: Decodable & Sendable
    associatedtype Answer: ResponseGenerator & Sendable

    func read(_ id: String, caller: AuthenticatedUser, requestID: String) async throws -> Answer
    func update(_ id: String, caller: AuthenticatedUser, _ body: Update, requestID: String) async throws -> Answer
    func delete(_ id: String, caller: AuthenticatedUser) async throws
}

/// `GET`, `PUT` and `DELETE` of one item by id, for a caller with a token: the id and the caller
/// are read here, the item's service decides the rest.
struct ItemRoutes<Service: ItemService>: Sendable {
    let service: Service
    /// The item's path, ending in its id parameter (`/v1/posts/{post_id}`).
    let path: String
    let parameter: String

    func register(on group: ServiceApplication.Group) {
        group.get(RouterPath(path)) { _, context -> Service.Answer in
            try await service.read(try context.parameters.require(parameter), caller: try context.requireUser(), requestID: context.requestID)
        }
        group.put(RouterPath(path)) { request, context -> Service.Answer in
            let body = try await request.decode(as: Service.Update.self, context: context)
            return try await service.update(
                try context.parameters.require(parameter), caller: try context.requireUser(), body, requestID: context.requestID)
        }
        group.delete(RouterPath(path)) { _, context -> EmptyAnswer in
            try await service.delete(try context.parameters.require(parameter), caller: try context.requireUser())
            return EmptyAnswer()
        }
    }
}
