import Contracts
import Hummingbird
import ServiceKit

/// §8 channels and their messages, for workspace (`slp`) apps only. Lists are bare arrays.
struct ChannelRoutes: Sendable {
    let channels: ChannelService
    let upload: MessageUpload

    func register(protected: ServiceApplication.Group) {
        protected.get("/v1/workspaces/{wid}/channels") { _, context -> Response in
            JSONCoding.response(
                body: try await channels.list(try context.requireUser(profile: .slp), workspace: try context.parameters.require("wid"), mine: false))
        }
        protected.get("/v1/workspaces/{wid}/my-channels") { _, context -> Response in
            JSONCoding.response(
                body: try await channels.list(try context.requireUser(profile: .slp), workspace: try context.parameters.require("wid"), mine: true))
        }
        protected.post("/v1/workspaces/{wid}/channels") { request, context -> ChannelAnswer in
            let caller = try context.requireUser(profile: .slp)
            let body = try await request.decode(as: NameDescriptionRequest.self, context: context)
            return try await channels.create(caller, workspace: try context.parameters.require("wid"), body)
        }
        protected.get("/v1/workspaces/{wid}/channels/{cid}") { _, context -> ChannelDetail in
            try await channels.detail(
                try context.requireUser(profile: .slp), workspace: try context.parameters.require("wid"),
                channel: try context.parameters.require("cid"), requestID: context.requestID)
        }
        protected.put("/v1/workspaces/{wid}/channels/{cid}") { request, context -> ChannelAnswer in
            let caller = try context.requireUser(profile: .slp)
            let body = try await request.decode(as: NameDescriptionRequest.self, context: context)
            return try await channels.update(
                caller, workspace: try context.parameters.require("wid"), channel: try context.parameters.require("cid"), body)
        }
        protected.delete("/v1/workspaces/{wid}/channels/{cid}") { _, context -> EmptyAnswer in
            try await channels.delete(
                try context.requireUser(profile: .slp), workspace: try context.parameters.require("wid"),
                channel: try context.parameters.require("cid"))
            return EmptyAnswer()
        }
        protected.get("/v1/workspaces/{wid}/channels/{cid}/exit") { _, context -> Response in
            JSONCoding.response(
                body: try await channels.exit(
                    try context.requireUser(profile: .slp), workspace: try context.parameters.require("wid"),
                    channel: try context.parameters.require("cid")))
        }
        WorkspaceMessageRoutes(conversations: channels, upload: upload, path: "/v1/workspaces/{wid}/channels/{cid}", parameter: "cid")
            .register(protected: protected)
    }
}
