import Contracts
import Foundation
import ServiceKit

/// The devices to push to, per user and app.
struct DeviceService: Sendable {
    let store: any PushStore

    static let maxTokenLength = 4096

    /// `token` for the caller's session, moved from whoever had it; `""` removes the devices the
    /// caller's session registered (sign-out on this device).
    func register(_ token: String, platform given: String? = nil, caller: AuthenticatedUser) async throws {
        let token = token.trimmingCharacters(in: .whitespaces)
        let platform: DevicePlatform
        switch given {
        case nil, "": platform = DevicePlatform.detect(token)
        case "fcm": platform = .fcm
        case "apns": platform = .apns
        default: throw ServiceError.badRequest("platform must be fcm or apns")
        }
        guard token.utf8.count <= Self.maxTokenLength, token.utf8.allSatisfy({ $0 > 32 && $0 < 127 }) else {
            throw ServiceError.badRequest("deviceToken must be a printable token of at most \(Self.maxTokenLength) characters")
        }
        if token.isEmpty {
            try await store.removeDevices(appID: caller.appID, userID: caller.userID, sessionID: caller.sessionID)
        } else {
            try await store.register(token: token, platform: platform, appID: caller.appID, userID: caller.userID, sessionID: caller.sessionID,
                                     at: GlintDate.nowMilliseconds())
        }
    }
}
