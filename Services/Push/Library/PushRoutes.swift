import Contracts
import Hummingbird
import ServiceKit

/// API.md §6, and chat-svc's outbox events.
struct PushRoutes: Sendable {
    let devices: DeviceService
    let notifications: NotificationService

    func register(internal group: ServiceApplication.Group, protected: ServiceApplication.Group) {
        protected.put("/v1/users/deviceToken") { request, context -> EmptyAnswer in
            let body = try await request.decode(as: DeviceTokenRequest.self, context: context)
            let caller = try context.requireUser()
            try await devices.register(body.deviceToken, platform: body.platform, appID: caller.appID, userID: caller.userID, sessionID: caller.sessionID)
            return EmptyAnswer()
        }
        protected.post("/v1/notifications/push") { request, context -> NotificationAnswer in
            let body = try await request.decode(as: PushRequest.self, context: context)
            guard let user = body.userID else { throw ServiceError.badRequest("user_id required") }
            return try await push(to: [user], body, caller: try context.requireUser())
        }
        protected.post("/v1/notifications/push/group") { request, context -> NotificationAnswer in
            let body = try await request.decode(as: PushRequest.self, context: context)
            guard let users = body.userIDs, !users.isEmpty else { throw ServiceError.badRequest("user_ids required") }
            return try await push(to: users, body, caller: try context.requireUser())
        }
        group.serve(InternalEndpoints.Push.deviceToken) { _, event, _ in
            try await devices.register(event.deviceToken, appID: event.appID, userID: event.userID, sessionID: event.sessionID)
            return EmptyAnswer()
        }
        group.serve(InternalEndpoints.Push.chatMessages) { _, events, _ in
            guard events.count <= ChatMessageEvent.maxPerCall else { throw ServiceError.badRequest("at most \(ChatMessageEvent.maxPerCall) messages per call") }
            for event in events {
                // Not the sender, and not who has the room open right now.
                let absent = Set(event.recipients).subtracting(event.present).subtracting([event.senderID])
                let message = PushMessage(
                    title: event.senderNick, body: event.content.isEmpty ? "사진" : event.content,
                    data: ["roomId": event.roomID, "content": event.content, "chatId": event.chatID, "senderNick": event.senderNick]
                ).fitted()
                _ = try await notifications.enqueue(appID: event.appID, users: Array(absent), message: message, key: "chat:" + event.chatID)
            }
            return EmptyAnswer()
        }
    }

    private func push(to users: [String], _ body: PushRequest, caller: AuthenticatedUser) async throws -> NotificationAnswer {
        let message = try PushMessage(title: body.title, body: body.body, data: body.data ?? [:]).validated()
        return NotificationAnswer(notificationID: try await notifications.enqueue(appID: caller.appID, users: users, message: message).id)
    }
}
