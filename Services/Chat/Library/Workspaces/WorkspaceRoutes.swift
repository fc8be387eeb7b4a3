import Contracts
import FileStorage
import Hummingbird
import ServiceKit

/// §8 workspaces and their members, for workspace (`slp`) apps only. Lists are bare arrays.
struct WorkspaceRoutes: Sendable {
    let workspaces: WorkspaceService

    func register(protected: ServiceApplication.Group) {
        protected.get("/v1/workspaces") { _, context -> Response in
            JSONCoding.response(body: try await workspaces.list(try context.requireUser(profile: .slp)))
        }
        protected.post("/v1/workspaces") { request, context -> WorkspaceAnswer in
            let caller = try context.requireUser(profile: .slp)
            let form = try await MultipartForm.read(request, limits: .uploads)
            return try await workspaces.create(
                caller, name: form.field("name"), description: form.field("description"),
                image: form.files(named: "image").first, requestID: context.requestID)
        }
        protected.get("/v1/workspaces/{wid}") { _, context -> WorkspaceDetail in
            try await workspaces.detail(try context.requireUser(profile: .slp), try context.parameters.require("wid"), requestID: context.requestID)
        }
        protected.put("/v1/workspaces/{wid}") { request, context -> WorkspaceAnswer in
            let caller = try context.requireUser(profile: .slp)
            let id = try context.parameters.require("wid")
            guard MultipartForm.isMultipart(request) else {
                let body = try await request.decode(as: NameDescriptionRequest.self, context: context)
                return try await workspaces.update(caller, id, name: body.name, description: body.description, image: nil)
            }
            // The owner first: others' images are refused before their bytes are read.
            _ = try await workspaces.owned(id, by: caller)
            let form = try await MultipartForm.read(request, limits: .uploads)
            return try await workspaces.update(
                caller, id, name: form.field("name"), description: form.field("description"),
                image: form.files(named: "image").first)
        }
        protected.delete("/v1/workspaces/{wid}") { _, context -> EmptyAnswer in
            try await workspaces.delete(try context.requireUser(profile: .slp), try context.parameters.require("wid"))
            return EmptyAnswer()
        }
        protected.workspaceGet("/v1/workspaces/{wid}/members") { caller, workspace, _, context in
            try await workspaces.members(caller, workspace, requestID: context.requestID)
        }
        protected.post("/v1/workspaces/{wid}/members") { request, context -> SlpUser in
            let caller = try context.requireUser(profile: .slp)
            let body = try await request.decode(as: InviteRequest.self, context: context)
            return try await workspaces.invite(caller, try context.parameters.require("wid"), email: body.email, requestID: context.requestID)
        }
        protected.get("/v1/workspaces/{wid}/members/{user_id}") { _, context -> SlpUser in
            try await workspaces.member(
                try context.requireUser(profile: .slp), try context.parameters.require("wid"),
                userID: try context.parameters.require("user_id"), requestID: context.requestID)
        }
        protected.put("/v1/workspaces/{wid}/transfer/ownership") { request, context -> WorkspaceAnswer in
            let caller = try context.requireUser(profile: .slp)
            let body = try await request.decode(as: OwnershipRequest.self, context: context)
            return try await workspaces.transfer(caller, try context.parameters.require("wid"), to: body.ownerID)
        }
        // A GET that leaves: the app calls it so.
        protected.workspaceGet("/v1/workspaces/{wid}/exit") { caller, workspace, _, _ in try await workspaces.exit(caller, workspace) }
    }
}
