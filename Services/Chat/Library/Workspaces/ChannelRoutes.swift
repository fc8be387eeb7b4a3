import Contracts
import Hummingbird
import ServiceKit

/// §8 channels and their messages, for workspace (`slp`) apps only. Lists are bare arrays.
struct ChannelRoutes: Sendable {
    let channels: ChannelService
    let upload: MessageUpload

    func register(protected: ServiceApplication.Group) {
        protected.workspaceGet("/v1/workspaces/{wid}/channels") { caller, workspace, _, _ in
            try await channels.list(caller, workspace: workspace, mine: false)
        }
        protected.workspaceGet("/v1/workspaces/{wid}/my-channels") { caller, workspace, _, _ in
            try await channels.list(caller, workspace: workspace, mine: true)
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
        protected.workspaceGet("/v1/workspaces/{wid}/channels/{cid}/exit") { caller, workspace, _, context in
            try await channels.exit(caller, workspace: workspace, channel: try context.parameters.require("cid"))
        }
        WorkspaceMessageRoutes(conversations: channels, upload: upload, path: "/v1/workspaces/{wid}/channels/{cid}", parameter: "cid")
            .register(protected: protected)
    }
}
