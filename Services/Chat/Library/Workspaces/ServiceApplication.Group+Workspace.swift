import Hummingbird
import ServiceKit

extension ServiceApplication.Group {
    /// A §8 read of workspace `{wid}` by its signed-in workspace-app caller, answered as it is:
    /// workspace apps' lists are bare arrays, not wrapped in `data`.
    func workspaceGet<Answer: Encodable & Sendable>(
        _ path: RouterPath,
        _ answer: @escaping @Sendable (_ caller: AuthenticatedUser, _ workspaceID: String, Request, GlintRequestContext) async throws -> Answer
    ) {
        get(path) { request, context -> Response in
            JSONCoding.response(
                body: try await answer(try context.requireUser(profile: .slp), try context.parameters.require("wid"), request, context))
        }
    }
}
