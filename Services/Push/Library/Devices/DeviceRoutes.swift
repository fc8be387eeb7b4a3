import Contracts
import Hummingbird
import ServiceKit

/// API.md §6 device tokens, and auth-svc's outbox event of a sign-in's token.
struct DeviceRoutes: Sendable {
    let devices: DeviceService

    func register(internal group: ServiceApplication.Group, protected: ServiceApplication.Group) {
        protected.put("/v1/users/deviceToken") { request, context -> EmptyAnswer in
            let body = try await request.decode(as: DeviceTokenRequest.self, context: context)
            let caller = try context.requireUser()
            try await devices.register(
                body.deviceToken, platform: body.platform, appID: caller.appID, userID: caller.userID, sessionID: caller.sessionID)
            return EmptyAnswer()
        }
        group.serve(InternalEndpoints.Push.userDevices) { userID, _, context in
            try await devices.devices(of: userID, appID: try context.requireAppID())
        }
        group.serve(InternalEndpoints.Push.deviceToken) { _, event, _ in
            try await devices.register(event.deviceToken, appID: event.appID, userID: event.userID, sessionID: event.sessionID)
            return EmptyAnswer()
        }
    }
}
