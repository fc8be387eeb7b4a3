import Contracts
import Hummingbird
import ServiceKit

/// API.md §6 notifications, and chat-svc's outbox events of messages to push.
struct NotificationRoutes: Sendable {
    let notifications: NotificationService
    /// admin-svc's: deliveries per provider, a test notification.
    let stats: PushStatsService

    func register(internal group: ServiceApplication.Group, protected: ServiceApplication.Group) {
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
        group.serve(InternalEndpoints.Push.stats) { _, query, context in
            try await stats.stats(appID: try context.requireAppID(), hours: query.hours)
        }
        group.serve(InternalEndpoints.Push.testNotification) { userID, request, context in
            try await stats.test(userID: userID, appID: try context.requireAppID(), request)
        }
        group.serve(InternalEndpoints.Push.chatMessages) { _, events, _ in
            guard events.count <= ChatMessageEvent.maxPerCall else {
                throw ServiceError.badRequest("at most \(ChatMessageEvent.maxPerCall) messages per call")
            }
            for event in events {
                _ = try await notifications.enqueue(chatMessage: event)
            }
            return EmptyAnswer()
        }
    }

    private func push(to users: [String], _ body: PushRequest, caller: AuthenticatedUser) async throws -> NotificationAnswer {
        let message = try PushMessage(title: body.title, body: body.body, data: body.data ?? [:]).validated()
        return NotificationAnswer(notificationID: try await notifications.enqueue(appID: caller.appID, users: users, message: message).id)
    }
}
