import Contracts
import Hummingbird
import ServiceKit

/// §8 direct messages, for workspace (`slp`) apps only. Lists are bare arrays.
struct DirectMessageRoutes: Sendable {
    let dms: DirectMessageService
    let upload: MessageUpload

    func register(protected: ServiceApplication.Group) {
        protected.workspaceGet("/v1/workspaces/{wid}/dms") { caller, workspace, _, context in
            try await dms.list(caller, workspace: workspace, requestID: context.requestID)
        }
        protected.post("/v1/workspaces/{wid}/dms") { request, context -> DMRoomAnswer in
            let caller = try context.requireUser(profile: .slp)
            let body = try await request.decode(as: OpenRoomRequest.self, context: context)
            return try await dms.open(
                caller, workspace: try context.parameters.require("wid"), opponentID: body.opponentID, requestID: context.requestID)
        }
        WorkspaceMessageRoutes(conversations: dms, upload: upload, path: "/v1/workspaces/{wid}/dms/{room}", parameter: "room")
            .register(protected: protected)
    }
}
