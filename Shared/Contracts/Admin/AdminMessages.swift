/// The admin API's bodies (`/admin/api`, issue 35): operators' own JSON, not an app dialect.
/// Dates are API.md's strings (`GlintDate`).

/// `POST /admin/api/session`.
package struct OperatorSignIn: Codable, Sendable, Equatable {
    package var email: String
    package var password: String
    /// The current TOTP code (six digits).
    package var code: String

    package init(email: String, password: String, code: String) {
        (self.email, self.password, self.code) = (email, password, code)
    }
}

/// An operator as the API shows one.
package struct OperatorAnswer: Codable, Sendable, Equatable {
    package var id: String
    package var email: String
    package var role: OperatorRole
    /// The apps (ids or names) the role covers; empty: every app.
    package var apps: [String]
    /// Still on the one-time password `glint admin add` printed: the console asks for a new one
    /// before anything else (`POST /admin/api/session/password`).
    package var passwordChangeRequired: Bool

    package init(id: String, email: String, role: OperatorRole, apps: [String], passwordChangeRequired: Bool = false) {
        (self.id, self.email, self.role, self.apps) = (id, email, role, apps)
        self.passwordChangeRequired = passwordChangeRequired
    }
}

/// `POST /admin/api/session/password`: the operator's own password, changed with the current one.
package struct OperatorPasswordChange: Codable, Sendable, Equatable {
    package var currentPassword: String
    package var newPassword: String

    package init(currentPassword: String, newPassword: String) {
        (self.currentPassword, self.newPassword) = (currentPassword, newPassword)
    }
}

package enum OperatorRole: String, Codable, Sendable, CaseIterable {
    /// Everything, including managing operators.
    case owner
    /// Everything within its apps.
    case admin
    /// Reports, content and users of its apps: no app settings, no payments.
    case moderator
}

/// The signed-in session: every state-changing call sends `csrfToken` as `X-CSRF-Token`.
package struct OperatorSessionAnswer: Codable, Sendable, Equatable {
    package var csrfToken: String
    package var `operator`: OperatorAnswer
    package var expiresAt: String

    package init(csrfToken: String, operator: OperatorAnswer, expiresAt: String) {
        (self.csrfToken, self.operator, self.expiresAt) = (csrfToken, `operator`, expiresAt)
    }
}

/// `GET /admin/api/apps`: the apps an operator may see.
package struct AdminAppAnswer: Codable, Sendable, Equatable {
    package var id: String
    package var name: String
    package var profile: Dialect
    package var mount: String?

    package init(id: String, name: String, profile: Dialect, mount: String?) {
        (self.id, self.name, self.profile, self.mount) = (id, name, profile, mount)
    }
}

/// `POST …/users/{user_id}/ban`: no `until`, for ever.
package struct AdminBanRequest: Codable, Sendable, Equatable {
    package var reason: String
    package var until: String?

    package init(reason: String, until: String? = nil) {
        (self.reason, self.until) = (reason, until)
    }
}

/// A ban as the API shows it.
package struct AdminBanAnswer: Codable, Sendable, Equatable {
    package var userId: String
    package var reason: String
    package var until: String?
    package var operatorId: String
    package var createdAt: String

    package init(userId: String, reason: String, until: String?, operatorId: String, createdAt: String) {
        (self.userId, self.reason, self.until, self.operatorId, self.createdAt) = (userId, reason, until, operatorId, createdAt)
    }
}

extension AdminBanAnswer {
    /// A ban as auth-svc keeps it, in the API's dates.
    package init(_ state: BanState) {
        self.init(
            userId: state.userID, reason: state.reason, until: state.until.map(GlintDate.string(from:)), operatorId: state.operatorID,
            createdAt: GlintDate.string(from: state.createdAt))
    }
}

/// Any action that closes with a reason (hide, restore, dismiss).
package struct AdminActionRequest: Codable, Sendable, Equatable {
    package var reason: String?

    package init(reason: String? = nil) {
        self.reason = reason
    }
}

/// One line of the audit log.
package struct AuditEntryAnswer: Codable, Sendable, Equatable {
    package var id: String
    package var at: String
    package var operatorId: String
    package var operatorEmail: String
    package var address: String
    package var action: String
    package var appId: String?
    package var targetKind: String?
    package var targetId: String?
    /// JSON text of the target before and after, where the action changed one.
    package var before: String?
    package var after: String?
    package var requestId: String

    package init(
        id: String, at: String, operatorId: String, operatorEmail: String, address: String, action: String, appId: String?, targetKind: String?,
        targetId: String?, before: String?, after: String?, requestId: String
    ) {
        (self.id, self.at, self.operatorId, self.operatorEmail, self.address, self.action) = (id, at, operatorId, operatorEmail, address, action)
        (self.appId, self.targetKind, self.targetId, self.before, self.after, self.requestId) = (
            appId, targetKind, targetId, before, after, requestId
        )
    }
}

extension OperatorRole: WireEnum {}

/// admin-svc → auth-svc: which reports of the caller's app to list.
package struct ReportQueueQuery: Codable, Sendable, Equatable {
    /// `open` or `closed`.
    package var state: String
    /// `user`, `post`, `comment` or `bookstory`; nil for all.
    package var targetType: String?
    package var limit: Int

    package init(state: String, targetType: String? = nil, limit: Int = 50) {
        (self.state, self.targetType, self.limit) = (state, targetType, limit)
    }
}

/// One report in a group.
package struct QueuedReportAnswer: Codable, Sendable, Equatable {
    package var id: String
    package var reporterId: String
    package var reason: String
    package var createdAt: String

    package init(id: String, reporterId: String, reason: String, createdAt: String) {
        (self.id, self.reporterId, self.reason, self.createdAt) = (id, reporterId, reason, createdAt)
    }
}

/// The reports of one target, oldest first, and what closed them.
package struct ReportGroupAnswer: Codable, Sendable, Equatable {
    package var targetType: String
    package var targetId: String
    package var state: String
    /// When the oldest report came, and its age in seconds when asked.
    package var oldestAt: String
    package var ageSeconds: Int
    package var reporters: Int
    package var reasons: [String]
    package var reports: [QueuedReportAnswer]
    /// `dismissed`, `hidden` or `banned` once closed.
    package var action: String?
    /// The target as operators see it (the user's nick, the content's text), when it still exists.
    package var preview: String?
    package var authorId: String?
    /// Its images as stored (`/data/<area>/<name>`: a user's profile image, a post's photos).
    package var files: [String]

    package init(
        targetType: String, targetId: String, state: String, oldestAt: String, ageSeconds: Int, reporters: Int, reasons: [String],
        reports: [QueuedReportAnswer], action: String? = nil, preview: String? = nil, authorId: String? = nil, files: [String] = []
    ) {
        (self.targetType, self.targetId, self.state, self.oldestAt, self.ageSeconds) = (targetType, targetId, state, oldestAt, ageSeconds)
        (self.reporters, self.reasons, self.reports, self.action, self.preview, self.authorId, self.files) = (
            reporters, reasons, reports, action, preview, authorId, files
        )
    }
}

/// admin-svc → auth-svc: close a target's open reports with the action taken.
package struct ReportClosing: Codable, Sendable, Equatable {
    package var targetType: String
    package var targetID: String
    package var action: String
    package var operatorID: String

    package init(targetType: String, targetID: String, action: String, operatorID: String) {
        (self.targetType, self.targetID, self.action, self.operatorID) = (targetType, targetID, action, operatorID)
    }
}

/// How many reports an action closed.
package struct ReportsClosed: Codable, Sendable, Equatable {
    package var closed: Int

    package init(closed: Int) {
        self.closed = closed
    }
}

/// `POST …/reports/{kind}/{target_id}/{dismiss|hide|ban}`: why, and for a ban until when (none: for ever).
package struct ReportActionRequest: Codable, Sendable, Equatable {
    package var reason: String?
    package var until: String?

    package init(reason: String? = nil, until: String? = nil) {
        (self.reason, self.until) = (reason, until)
    }
}

/// What a report action did: the reports it closed, and the action recorded on them.
package struct ReportActionAnswer: Codable, Sendable, Equatable {
    package var closed: Int
    package var action: String

    package init(closed: Int, action: String) {
        (self.closed, self.action) = (closed, action)
    }
}

/// `POST /admin/api/operators` (owners): a new operator; `POST …/{operator_id}/role` takes role and apps.
package struct OperatorChange: Codable, Sendable, Equatable {
    package var email: String?
    package var role: OperatorRole
    package var apps: [String]?

    package init(email: String? = nil, role: OperatorRole, apps: [String]? = nil) {
        (self.email, self.role, self.apps) = (email, role, apps)
    }
}

/// What an owner is shown once: a new operator's one-time password and TOTP URI (or, after a
/// reset, the new URI alone).
package struct OperatorCredentials: Codable, Sendable, Equatable {
    package var `operator`: OperatorAnswer
    package var password: String?
    package var totpUri: String

    package init(operator: OperatorAnswer, password: String?, totpUri: String) {
        (self.operator, self.password, self.totpUri) = (`operator`, password, totpUri)
    }
}
