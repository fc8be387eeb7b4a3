import Contracts

/// The operators' admin API (issue 35), route by route: served by admin-svc under `/admin/api`
/// (the route table's `/admin/api/**`), behind the session cookie rather than an app's key.
package enum AdminCatalogue {
    package static let operations: [DocumentedOperation] = {
        typealias Op = DocumentedOperation
        let none = Op.Answer.json(.of(EmptyAnswer.self))
        let app = "/admin/api/apps/{app_id}"
        return [
            Op(
                method: "POST", pattern: "/admin/api/session", summary: "Sign in with email, password and a current TOTP code (sets the cookie)",
                access: .open, body: .json(.of(OperatorSignIn.self)), answer: .json(.of(OperatorSessionAnswer.self))),
            Op(
                method: "GET", pattern: "/admin/api/session", summary: "The signed-in operator and the session's CSRF token", access: .signedIn,
                answer: .json(.of(OperatorSessionAnswer.self))),
            Op(
                method: "POST", pattern: "/admin/api/session/password",
                summary: "Change the operator's own password (the current one proves it); its other sessions end", access: .signedIn,
                body: .json(.of(OperatorPasswordChange.self)), answer: .json(.of(OperatorSessionAnswer.self))),
            Op(method: "DELETE", pattern: "/admin/api/session", summary: "Sign out", access: .signedIn, answer: none),
            Op(method: "DELETE", pattern: "/admin/api/sessions", summary: "Sign out everywhere", access: .signedIn, answer: none),
            Op(
                method: "GET", pattern: "/admin/api/operators", summary: "Operators (owners)", access: .signedIn,
                answer: .json(.of([OperatorAnswer].self))),
            Op(
                method: "POST", pattern: "/admin/api/operators", summary: "Add an operator; its password and TOTP URI are shown once (owners)",
                access: .signedIn, body: .json(.of(OperatorChange.self)), answer: .json(.of(OperatorCredentials.self))),
            Op(
                method: "POST", pattern: "/admin/api/operators/{operator_id}/role", summary: "Change an operator's role and apps (owners)",
                access: .signedIn, body: .json(.of(OperatorChange.self)), answer: .json(.of(OperatorAnswer.self))),
            Op(
                method: "POST", pattern: "/admin/api/operators/{operator_id}/reset-totp",
                summary: "A new TOTP secret (shown once); the operator's sessions end (owners)", access: .signedIn,
                answer: .json(.of(OperatorCredentials.self))),
            Op(
                method: "DELETE", pattern: "/admin/api/operators/{operator_id}", summary: "Remove an operator (owners)", access: .signedIn,
                answer: none),
            Op(
                method: "GET", pattern: "/admin/api/apps", summary: "The apps the operator's role covers", access: .signedIn,
                answer: .json(.of([AdminAppAnswer].self))),
            Op(
                method: "GET", pattern: app, summary: "An app's settings, keys by their last characters (owners and admins)", access: .signedIn,
                answer: .json(.of(AppDetail.self))),
            Op(
                method: "POST", pattern: "/admin/api/apps", summary: "Register an app (owners); the answer carries its key, shown once",
                access: .signedIn, body: .json(.of(AppRegistration.self)), answer: .json(.of(AppKeyIssued.self))),
            Op(
                method: "POST", pattern: app + "/settings", summary: "Change an app's flags and sign-in providers", access: .signedIn,
                body: .json(.of(AppSettingsChange.self)), answer: .json(.of(AppDetail.self))),
            Op(
                method: "POST", pattern: app + "/rotate-key",
                summary: "A new key (in the answer, once); the old one keeps working grace_seconds more", access: .signedIn,
                body: .json(.of(KeyRotation.self)), answer: .json(.of(AppKeyIssued.self))),
            Op(
                method: "POST", pattern: app + "/disable", summary: "Disable an app: its keys and mount open nothing", access: .signedIn,
                answer: .json(.of(AppDetail.self))),
            Op(method: "POST", pattern: app + "/enable", summary: "Enable an app again", access: .signedIn, answer: .json(.of(AppDetail.self))),
            Op(
                method: "POST", pattern: app + "/users/{user_id}/ban", summary: "Ban a user until a time or (no until) for ever", access: .signedIn,
                body: .json(.of(AdminBanRequest.self)), answer: .json(.of(AdminBanAnswer.self))),
            Op(method: "POST", pattern: app + "/users/{user_id}/unban", summary: "Lift a user's ban", access: .signedIn, answer: none),
            Op(
                method: "GET", pattern: app + "/users", summary: "Users by id, email prefix or nick", access: .signedIn,
                query: [Op.Parameter("q", .string, required: true)], answer: .json(.of([OperatorUserSummary].self))),
            Op(
                method: "GET", pattern: app + "/users/{user_id}",
                summary: "A user's page: profile, sessions, ban, reports by and against, coins (not for moderators)", access: .signedIn,
                answer: .json(.of(OperatorUserDetail.self))),
            Op(
                method: "POST", pattern: app + "/users/{user_id}/sign-out", summary: "Sign the user out everywhere", access: .signedIn,
                answer: .json(.of(SignOutAnswer.self))),
            Op(
                method: "POST", pattern: app + "/users/{user_id}/delete", summary: "Delete the account (owners and admins)", access: .signedIn,
                answer: none),
            Op(
                method: "GET", pattern: app + "/reports", summary: "The reports queue: groups by target, oldest first, with a preview",
                access: .signedIn,
                query: [Op.Parameter("state", .string), Op.Parameter("kind", .string), Op.Parameter("limit", .integer)],
                answer: .json(.of([ReportGroupAnswer].self))),
            Op(
                method: "POST", pattern: app + "/reports/{kind}/{target_id}/{action}",
                summary: "Dismiss the group, hide its content or ban its author (action: dismiss, hide, ban); closes its reports",
                access: .signedIn, body: .json(.of(ReportActionRequest.self)), answer: .json(.of(ReportActionAnswer.self))),
            Op(
                method: "GET", pattern: app + "/content/{kind}/{content_id}", summary: "A post, comment, filter, story, theme or message",
                access: .signedIn, answer: .json(.of(ContentSummary.self))),
            Op(
                method: "GET", pattern: app + "/content/{kind}", summary: "An author's newest pieces of a kind, newest first",
                access: .signedIn, query: [Op.Parameter("author", .string, required: true), Op.Parameter("limit", .integer)],
                answer: .json(.of([ContentSummary].self))),
            Op(
                method: "GET", pattern: app + "/content/{kind}/{content_id}/around",
                summary: "A chat message with the three before and after it in its room, oldest first (kind: message)", access: .signedIn,
                answer: .json(.of([ContentSummary].self))),
            Op(
                method: "POST", pattern: app + "/content/{kind}/{content_id}/hide", summary: "Hide it from every app user", access: .signedIn,
                body: .json(.of(AdminActionRequest.self)), answer: .json(.of(ContentSummary.self))),
            Op(
                method: "POST", pattern: app + "/content/{kind}/{content_id}/restore", summary: "Show it again", access: .signedIn,
                body: .json(.of(AdminActionRequest.self)), answer: .json(.of(ContentSummary.self))),
            Op(
                method: "GET", pattern: app + "/payments", summary: "An app's payments, newest first, by user, order or imp_uid (owners and admins)",
                access: .signedIn,
                query: [
                    Op.Parameter("user", .string), Op.Parameter("order", .string), Op.Parameter("imp_uid", .string),
                    Op.Parameter("limit", .integer),
                ], answer: .json(.of([OperatorPayment].self))),
            Op(
                method: "POST", pattern: app + "/payments/{imp_uid}/refund",
                summary: "Cancel the payment at PortOne; its grant is taken back (owners and admins)", access: .signedIn,
                body: .json(.of(PaymentRefundRequest.self)), answer: .json(.of(OperatorPayment.self))),
            Op(
                method: "GET", pattern: app + "/push", summary: "An app's deliveries per provider and latest failures (owners and admins)",
                access: .signedIn, query: [Op.Parameter("hours", .integer)], answer: .json(.of(PushStats.self))),
            Op(
                method: "POST", pattern: app + "/users/{user_id}/test-push", summary: "A test notification to the user's devices (owners and admins)",
                access: .signedIn, body: .json(.of(TestPushRequest.self)), answer: .json(.of(TestPushAnswer.self))),
            Op(
                method: "GET", pattern: "/admin/api/overview",
                summary: "An app's (owners: every app's) activity per day, open reports, payments today, push and the processes' health",
                access: .signedIn, query: [Op.Parameter("app", .string), Op.Parameter("days", .integer)], answer: .json(.of(Overview.self))),
            Op(
                method: "GET", pattern: "/admin/api/requests",
                summary: "The gateways' request log: errors and a sample, newest first (owners; admins their apps')", access: .signedIn,
                query: [
                    Op.Parameter("request_id", .string), Op.Parameter("status", .integer), Op.Parameter("app", .string),
                    Op.Parameter("user", .string), Op.Parameter("limit", .integer),
                ], answer: .json(.of([RequestLogEntry].self))),
            Op(
                method: "GET", pattern: "/admin/api/requests/{request_id}", summary: "One request: its entry and every process's log lines of it",
                access: .signedIn, answer: .json(.of(RequestTrace.self))),
            Op(
                method: "GET", pattern: "/admin/api/audit", summary: "The audit log, newest first (owners: all; admins: their apps)",
                access: .signedIn,
                query: [
                    Op.Parameter("app", .string), Op.Parameter("operator", .string), Op.Parameter("action", .string),
                    Op.Parameter("before", .string), Op.Parameter("limit", .integer),
                ], answer: .json(.of([AuditEntryAnswer].self))),
        ]
    }()
}
