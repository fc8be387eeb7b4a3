import Contracts
import GRDB

/// One line of the audit log as stored (`audit_entry`, append-only on both engines: triggers
/// refuse an update or a delete, whoever runs it).
struct AuditRecord: Codable, Sendable, Equatable, FetchableRecord {
    var id: String
    var at: Int64
    var operatorID, operatorEmail, address, action: String
    var appID, targetKind, targetID, before, after: String?
    var requestID: String

    enum CodingKeys: String, CodingKey {
        case id, at, address, action, before, after
        case operatorID = "operator_id"
        case operatorEmail = "operator_email"
        case appID = "app_id"
        case targetKind = "target_kind"
        case targetID = "target_id"
        case requestID = "request_id"
    }

    var answer: AuditEntryAnswer {
        AuditEntryAnswer(
            id: id, at: GlintDate.string(fromMilliseconds: at), operatorId: operatorID, operatorEmail: operatorEmail, address: address,
            action: action, appId: appID, targetKind: targetKind, targetId: targetID, before: before, after: after, requestId: requestID)
    }
}

/// Which lines a reader asks for, newest first.
struct AuditQuery: Sendable, Equatable {
    /// The apps the reader may see; nil for every app (owners), whose lines without an app too.
    var apps: [String]?
    var appID: String?
    var operatorID: String?
    var action: String?
    /// Lines older than this one (`before` id's time), for the next page.
    var before: Int64?
    var limit = 50
}
