import Contracts
import Hummingbird
import ServiceKit

/// §8 direct messages, for workspace (`slp`) apps only. Lists are bare arrays.
struct DirectMessageRoutes: Sendable {
    let dms: DirectMessageService
    let upload: MessageUpload

    func register(protected: ServiceApplication.Group) {
        protected.get("/v1/workspaces/{wid}/dms") { _, context -> Response in
            JSONCoding.response(body: try await dms.list(try context.requireUser(profile: .slp), workspace: try context.parameters.require("wid"),
                                                         requestID: context.requestID))
        }
        protected.post("/v1/workspaces/{wid}/dms") { request, context -> DMRoomAnswer in
            let caller = try context.requireUser(profile: .slp)
            let body = try await request.decode(as: OpenRoomRequest.self, context: context)
            return try await dms.open(caller, workspace: try context.parameters.require("wid"), opponentID: body.opponentID, requestID: context.requestID)
        }
        protected.get("/v1/workspaces/{wid}/dms/{room}/chats") { request, context -> Response in
            JSONCoding.response(body: try await dms.chats(
                try context.requireUser(profile: .slp), workspace: try context.parameters.require("wid"), room: try context.parameters.require("room"),
                after: try ChatRoutes.cursorDate(request.uri.queryParameters["cursor_date"].map(String.init)), requestID: context.requestID))
        }
        protected.post("/v1/workspaces/{wid}/dms/{room}/chats") { request, context -> DMChatAnswer in
            let caller = try context.requireUser(profile: .slp)
            let (workspace, room) = (try context.parameters.require("wid"), try context.parameters.require("room"))
            // Participation first: outsiders' files are refused before their bytes are read.
            _ = try await dms.room(caller, workspace: workspace, room: room)
            return try await upload.send(request, context: context) { content, files in
                try await dms.send(caller, workspace: workspace, room: room, content: content, files: files, requestID: context.requestID)
            }
        }
        protected.get("/v1/workspaces/{wid}/dms/{room}/unreads") { request, context -> UnreadsAnswer in
            try await dms.unreads(try context.requireUser(profile: .slp), workspace: try context.parameters.require("wid"),
                                  room: try context.parameters.require("room"),
                                  after: try ChatRoutes.cursorDate(request.uri.queryParameters["after"].map(String.init), parameter: "after"),
                                  requestID: context.requestID)
        }
    }
}
