import Contracts
import Foundation
import ServiceClients
import ServiceKit

/// A ban, shared by the users' and the reports' desks: asks auth-svc and writes the audit line.
struct ModerationActions: Sendable {
    let auth: AuthClient
    let audit: AuditLog

    func ban(_ userID: String, app: AppInfo, reason: String, until: String?, by op: SignedInOperator) async throws -> AdminBanAnswer {
        let until = try until.map { text -> Date in
            // API.md's dates, or any ISO 8601 date-time (with or without fractions, any offset).
            if let milliseconds = GlintDate.milliseconds(from: text) { return GlintDate.date(fromMilliseconds: milliseconds) }
            let formatter = ISO8601DateFormatter()
            if let date = formatter.date(from: text) { return date }
            formatter.formatOptions.insert(.withFractionalSeconds)
            guard text.count <= 40, let date = formatter.date(from: text) else {
                throw ServiceError.badRequest("until must be a date like 2025-01-31T00:00:00.000Z")
            }
            return date
        }
        let state = try await auth.ban(userID, app.appID, BanRequest(reason: reason, until: until, operatorID: op.record.id), op.requestID)
        let answer = AdminBanAnswer(state)
        try await audit.record(op, "user.ban", app: app.appID, kind: "user", target: userID, after: JSONText.encode(answer))
        return answer
    }
}
