import Contracts
import ServiceClients
import ServiceKit

/// An app's push for owners and admins, shared by the admin API and the console: deliveries and
/// failures per provider over a window, and a test notification to one user's devices.
struct PushDesk: Sendable {
    let push: PushClient
    let audit: AuditLog

    func stats(hours: Int, app: AppInfo, by op: SignedInOperator) async throws -> PushStats {
        try Self.requireManager(op)
        return try await push.stats(hours, app.appID, op.requestID)
    }

    func test(_ userID: String, _ request: TestPushRequest, app: AppInfo, by op: SignedInOperator) async throws -> TestPushAnswer {
        try Self.requireManager(op)
        guard ObjectID.isValid(userID) else { throw ServiceError.notFound("no such user") }
        let answer = try await push.test(userID, request, app.appID, op.requestID)
        try await audit.record(op, "push.test", app: app.appID, kind: "user", target: userID, after: JSONText.encode(answer))
        return answer
    }

    /// `?hours=` (default a day).
    static func hours(_ text: Substring?) throws -> Int {
        guard let text, !text.isEmpty else { return 24 }
        guard let hours = Int(text), (1...720).contains(hours) else { throw ServiceError.badRequest("hours must be 1 to 720") }
        return hours
    }

    static func requireManager(_ op: SignedInOperator) throws {
        guard op.record.role != .moderator else { throw ServiceError(.forbidden, "push is for owners and admins") }
    }
}
