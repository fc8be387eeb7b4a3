import Contracts
import Hummingbird
import ServiceKit

/// A conversation of a workspace — a channel or a DM room — as its message routes use it: both
/// have the same three (history after a cursor, a message with files, unreads), answered in
/// their own shapes (`ChannelChatAnswer`, `DMChatAnswer`).
protocol WorkspaceConversation: Sendable {
    associatedtype Chat: ResponseEncodable & Sendable

    /// Throws unless the caller may read and write in it: checked before a message's files are read.
    func admit(_ caller: AuthenticatedUser, workspace id: String, conversation: String) async throws
    func chats(_ caller: AuthenticatedUser, workspace id: String, conversation: String, after: Int64?, requestID: String) async throws -> [Chat]
    func send(
        _ caller: AuthenticatedUser, workspace id: String, conversation: String, content: String, files: [String], requestID: String
    ) async throws -> Chat
    func unreads(
        _ caller: AuthenticatedUser, workspace id: String, conversation: String, after: Int64?, requestID: String
    ) async throws -> UnreadsAnswer
}
