import Contracts
import Foundation
import GRDB
import ServiceKit

/// An operator as stored (`admin_operator`): the bcrypt hash of its password, its TOTP secret
/// (base32), its role and the apps the role covers (JSON list of app ids or names; empty: all),
/// and the last TOTP step accepted (a code is accepted once).
struct OperatorRecord: Codable, Sendable, Equatable, FetchableRecord {
    var id, email, passwordHash, totpSecret: String
    var role: OperatorRole
    var apps: String
    var lastTOTPStep: Int64
    var createdAt: Int64
    /// When the operator chose its password; nil while the one-time password is in use.
    var passwordChangedAt: Int64? = nil

    enum CodingKeys: String, CodingKey {
        case id, email, role, apps
        case passwordHash = "password_hash"
        case totpSecret = "totp_secret"
        case lastTOTPStep = "last_totp_step"
        case createdAt = "created_at"
        case passwordChangedAt = "password_changed_at"
    }

    var appList: [String] { JSONText.decode(apps) ?? [] }

    var answer: OperatorAnswer { OperatorAnswer(id: id, email: email, role: role, apps: appList, passwordChangeRequired: passwordChangedAt == nil) }
}
