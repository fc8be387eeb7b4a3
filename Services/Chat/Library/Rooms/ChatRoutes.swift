import Contracts
import FileStorage
import HTTPTypes
import Hummingbird
import ServiceKit

/// §3 REST.
struct ChatRoutes: Sendable {
    let conversations: ConversationService
    let files: FileStore

    func register(internal group: ServiceApplication.Group, protected: ServiceApplication.Group) {
        files.registerServing(on: group)
        protected.post("/v1/chats") { request, context -> ChatRoomAnswer in
            let body = try await request.decode(as: OpenRoomRequest.self, context: context)
            return try await conversations.open(try context.requireUser(), opponentID: body.opponentID, requestID: context.requestID)
        }
        protected.get("/v1/chats") { _, context -> DataList<ChatRoomAnswer> in
            DataList(data: try await conversations.list(try context.requireUser(), requestID: context.requestID))
        }
        protected.get("/v1/chats/unreads") { _, context -> DataList<RoomUnreadCount> in
            DataList(data: try await conversations.unreads(try context.requireUser()))
        }
        protected.get("/v1/chats/{room_id}") { request, context -> DataList<ChatAnswer> in
            let query = request.uri.queryParameters
            return DataList(
                data: try await conversations.history(
                    try context.requireUser(), roomID: try context.parameters.require("room_id"),
                    after: try Self.cursorDate(query["cursor_date"].map(String.init)),
                    limit: try PageLimit.parse(query["limit"].map(String.init), default: 1000, max: 1000), requestID: context.requestID
                ))
        }
        protected.post("/v1/chats/{room_id}") { request, context -> ChatAnswer in
            let body = try await request.decode(as: SendChatRequest.self, context: context)
            return try await conversations.send(
                try context.requireUser(), roomID: try context.parameters.require("room_id"), body, requestID: context.requestID)
        }
        protected.post("/v1/chats/{room_id}/files") { request, context -> FilesAnswer in
            // Participation first: outsiders' uploads are refused before their bytes are read.
            try await conversations.requireParticipant(try context.requireUser(), roomID: try context.parameters.require("room_id"))
            let parts = try await MultipartForm.read(request, limits: .uploads).uploadedFiles(named: "files")
            return FilesAnswer(files: try await files.store(parts, appID: try context.requireAppID()))
        }
        protected.get("/v1/chats/{room_id}/search") { request, context -> DataList<ChatAnswer> in
            let query = request.uri.queryParameters
            guard let text = query["q"].map(String.init), (1...100).contains(text.count) else {
                throw ServiceError.badRequest("q must be 1 to 100 characters")
            }
            return DataList(
                data: try await conversations.search(
                    try context.requireUser(), roomID: try context.parameters.require("room_id"), query: text,
                    limit: try PageLimit.parse(query["limit"].map(String.init)), requestID: context.requestID
                ))
        }
        protected.put("/v1/chats/{room_id}/read") { request, context -> UnreadCountAnswer in
            let body = try await request.decode(as: ReadPointerRequest.self, context: context)
            return try await conversations.markRead(try context.requireUser(), roomID: try context.parameters.require("room_id"), chatID: body.chatID)
        }
    }

    /// A date cursor (`cursor_date`, §8's `after`): missing, empty or valueless = from the start;
    /// otherwise our date format.
    static func cursorDate(_ text: String?, parameter: String = "cursor_date") throws -> Int64? {
        guard let text, !text.isEmpty else { return nil }
        guard let milliseconds = GlintDate.milliseconds(from: text) else {
            throw ServiceError.badRequest("\(parameter) must look like 2024-11-22T07:45:31.693Z")
        }
        return milliseconds
    }
}
