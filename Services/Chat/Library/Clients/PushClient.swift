import Contracts
import ServiceKit

/// What chat-svc tells push-svc (from its outbox): a message to notify its absent recipients of.
struct PushClient: Sendable {
    /// push-svc applies it idempotently by chat id.
    var chatMessage: @Sendable (ChatMessageEvent) async throws -> Void

    static func live(_ client: InternalClient) -> PushClient {
        PushClient { event in
            _ = try await client.call(InternalEndpoints.Push.chatMessage, body: event, for: .init(appID: event.appID))
        }
    }

    static let failing = PushClient { _ in throw ServiceError.unavailable(.push) }
}
