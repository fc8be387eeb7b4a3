import Contracts
import Hummingbird
import ServiceKit

/// §8 channels and their messages, for workspace (`slp`) apps only. Lists are bare arrays.
struct ChannelRoutes: Sendable {
    let channels: ChannelService
    let upload: MessageUpload

    func register(protected: ServiceApplication.Group) {
        protected.get("/v1/workspaces/{wid}/channels") { _, context -> Response in
            JSONCoding.response(body: try await channels.list(try context.requireUser(profile: .slp), workspace: try context.parameters.require("wid"), mine: false))
        }
        protected.get("/v1/workspaces/{wid}/my-channels") { _, context -> Response in
            JSONCoding.response(body: try await channels.list(try context.requireUser(profile: .slp), workspace: try context.parameters.require("wid"), mine: true))
        }
        protected.post("/v1/workspaces/{wid}/channels") { request, context -> ChannelAnswer in
            let caller = try context.requireUser(profile: .slp)
            let body = try await request.decode(as: NameDescriptionRequest.self, context: context)
            return try await channels.create(caller, workspace: try context.parameters.require("wid"), body)
        }
        protected.get("/v1/workspaces/{wid}/channels/{cid}") { _, context -> ChannelDetail in
            try await channels.detail(try context.requireUser(profile: .slp), workspace: try context.parameters.require("wid"),
                                      channel: try context.parameters.require("cid"), requestID: context.requestID)
        }
        protected.put("/v1/workspaces/{wid}/channels/{cid}") { request, context -> ChannelAnswer in
            let caller = try context.requireUser(profile: .slp)
            let body = try await request.decode(as: NameDescriptionRequest.self, context: context)
            return try await channels.update(caller, workspace: try context.parameters.require("wid"), channel: try context.parameters.require("cid"), body)
        }
        protected.delete("/v1/workspaces/{wid}/channels/{cid}") { _, context -> EmptyAnswer in
            try await channels.delete(try context.requireUser(profile: .slp), workspace: try context.parameters.require("wid"),
                                      channel: try context.parameters.require("cid"))
            return EmptyAnswer()
        }
        protected.get("/v1/workspaces/{wid}/channels/{cid}/exit") { _, context -> Response in
            JSONCoding.response(body: try await channels.exit(try context.requireUser(profile: .slp), workspace: try context.parameters.require("wid"),
                                                              channel: try context.parameters.require("cid")))
        }
        protected.get("/v1/workspaces/{wid}/channels/{cid}/chats") { request, context -> Response in
            JSONCoding.response(body: try await channels.chats(
                try context.requireUser(profile: .slp), workspace: try context.parameters.require("wid"), channel: try context.parameters.require("cid"),
                after: try ChatRoutes.cursorDate(request.uri.queryParameters["cursor_date"].map(String.init)), requestID: context.requestID))
        }
        protected.post("/v1/workspaces/{wid}/channels/{cid}/chats") { request, context -> ChannelChatAnswer in
            let caller = try context.requireUser(profile: .slp)
            let (workspace, channel) = (try context.parameters.require("wid"), try context.parameters.require("cid"))
            // Membership first: outsiders' files are refused before their bytes are read.
            _ = try await channels.channel(caller, workspace: workspace, channel: channel)
            return try await upload.send(request, context: context) { content, files in
                try await channels.send(caller, workspace: workspace, channel: channel, content: content, files: files, requestID: context.requestID)
            }
        }
        protected.get("/v1/workspaces/{wid}/channels/{cid}/unreads") { request, context -> UnreadsAnswer in
            try await channels.unreads(try context.requireUser(profile: .slp), workspace: try context.parameters.require("wid"),
                                       channel: try context.parameters.require("cid"),
                                       after: try ChatRoutes.cursorDate(request.uri.queryParameters["after"].map(String.init), parameter: "after"))
        }
    }
}
