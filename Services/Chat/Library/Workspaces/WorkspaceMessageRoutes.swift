import Contracts
import Hummingbird
import ServiceKit

/// §8's message routes of a channel or a DM room, under `path` (its id in `parameter`), for
/// workspace (`slp`) apps only. Lists are bare arrays.
struct WorkspaceMessageRoutes<Conversation: WorkspaceConversation>: Sendable {
    let conversations: Conversation
    let upload: MessageUpload
    /// e.g. `/v1/workspaces/{wid}/channels/{cid}`.
    let path: String
    let parameter: String

    func register(protected: ServiceApplication.Group) {
        protected.workspaceGet(RouterPath(path + "/chats")) { caller, workspace, request, context in
            try await conversations.chats(
                caller, workspace: workspace, conversation: try context.parameters.require(parameter),
                after: try ChatRoutes.cursorDate(request.uri.queryParameters["cursor_date"].map(String.init)), requestID: context.requestID)
        }
        protected.post(RouterPath(path + "/chats")) { request, context -> Conversation.Chat in
            let caller = try context.requireUser(profile: .slp)
            let (workspace, conversation) = (try context.parameters.require("wid"), try context.parameters.require(parameter))
            // Access first: outsiders' files are refused before their bytes are read.
            try await conversations.admit(caller, workspace: workspace, conversation: conversation)
            return try await upload.send(request, context: context) { content, files in
                try await conversations.send(
                    caller, workspace: workspace, conversation: conversation, content: content, files: files, requestID: context.requestID)
            }
        }
        protected.get(RouterPath(path + "/unreads")) { request, context -> UnreadsAnswer in
            try await conversations.unreads(
                try context.requireUser(profile: .slp), workspace: try context.parameters.require("wid"),
                conversation: try context.parameters.require(parameter),
                after: try ChatRoutes.cursorDate(request.uri.queryParameters["after"].map(String.init), parameter: "after"),
                requestID: context.requestID)
        }
    }
}
