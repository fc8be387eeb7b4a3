import Contracts
import Foundation
import ServiceClients
import ServiceKit

/// The two actions that change what app users see, shared by the content, user and report
/// routes: each asks the owning service and writes the audit line.
struct ModerationActions: Sendable {
    let auth: AuthClient
    let content: ContentClient
    let audit: AuditLog

    func hide(_ kind: ContentKind, _ id: String, app: AppInfo, reason: String?, by op: SignedInOperator) async throws -> ContentSummary {
        let before = try await content.summary(kind, id, app.appID, op.requestID)
        let after = try await content.hide(kind, id, app.appID, ModerationRequest(operatorID: op.record.id, reason: reason), op.requestID)
        try await audit.record(
            op, "content.hide", app: app.appID, kind: kind.rawValue, target: id, before: JSONText.encode(before), after: JSONText.encode(after))
        return after
    }

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
