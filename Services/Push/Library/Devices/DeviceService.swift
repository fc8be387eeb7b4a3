import Contracts
import Foundation
import ServiceKit

/// The devices to push to, per user and app.
struct DeviceService: Sendable {
    let store: any DeviceStore

    /// A user's devices as operators see them (the token by its end only).
    func devices(of userID: String, appID: String) async throws -> [OperatorDeviceSummary] {
        guard ObjectID.isValid(userID) else { throw ServiceError(.userNotFound, "invalid user id") }
        return try await store.devices(appID: appID, userID: userID).map {
            OperatorDeviceSummary(
                platform: $0.platform, sessionId: $0.sessionID, tokenEnd: String($0.token.suffix(6)),
                updatedAt: GlintDate.string(fromMilliseconds: $0.updatedAt))
        }
    }

    /// `token` for the session (a login: one device), moved from whoever had it; `""` removes the
    /// devices the session registered (sign-out on this device).
    func register(_ token: String, platform given: String? = nil, appID: String, userID: String, sessionID: String) async throws {
        let token = token.trimmingCharacters(in: .whitespaces)
        let platform: DevicePlatform
        switch given {
        case nil, "": platform = DevicePlatform.detect(token)
        case "fcm": platform = .fcm
        case "apns": platform = .apns
        default: throw ServiceError.badRequest("platform must be fcm or apns")
        }
        guard DeviceToken.isAcceptable(token) else {
            throw ServiceError.badRequest("deviceToken must be a printable token of at most \(DeviceToken.maxLength) characters")
        }
        if token.isEmpty {
            try await store.removeDevices(appID: appID, userID: userID, sessionID: sessionID)
        } else {
            try await store.register(
                token: token, platform: platform, appID: appID, userID: userID, sessionID: sessionID, at: GlintDate.nowMilliseconds())
        }
    }
}
