import Contracts
import Hummingbird
import ServiceKit

/// An app's users: search (`/admin/apps/{app_id}/users?q=`), a user's page (account, sessions,
/// devices, ban, reports by and against, coins and payments), and its four actions.
struct UserPages: Sendable {
    let console: Console
    let desk: UserDesk
    let content: ContentDesk

    struct SearchView {
        var appID: String
        var query: String
        var searched: Bool
        var users: [OperatorUserSummary]
    }

    struct DetailView {
        var appID: String
        var detail: OperatorUserDetail
        var durations: [Choice]
        var canDelete: Bool
        var seesWallet: Bool
        var authored: [AuthoredSection]
    }

    /// A user's newest pieces of one kind, with a link to more.
    struct AuthoredSection {
        var kind: String
        var rows: [ContentRow]
    }

    func register(on group: ServiceApplication.Group) {
        console.page(group, "/admin/apps/{app_id}/users") { request, context, visit in
            let app = try visit.app(context)
            let query = request.uri.queryParameters["q"].map(String.init) ?? ""
            let users = query.isEmpty ? [] : try await desk.search(app, query, by: visit.op)
            return Console.Page(
                template: "users", title: "Users · \(app.name)",
                content: SearchView(appID: app.appID, query: query, searched: !query.isEmpty, users: users), app: app)
        }
        console.page(group, "/admin/apps/{app_id}/users/{user_id}") { _, context, visit in
            let app = try visit.app(context)
            let userID = try context.parameters.require("user_id")
            async let authored = content.authored(by: userID, limit: 5, app: app, op: visit.op)
            let detail = try await desk.detail(app, userID, by: visit.op)
            let sections = try await authored.sorted { $0.key.rawValue < $1.key.rawValue }.compactMap { kind, pieces in
                pieces.isEmpty ? nil : AuthoredSection(kind: kind.rawValue, rows: pieces.map { ContentRow($0) })
            }
            let view = DetailView(
                appID: app.appID, detail: detail, durations: BanDuration.options, canDelete: visit.op.record.role != .moderator,
                seesWallet: visit.op.record.role != .moderator, authored: sections)
            return Console.Page(template: "user", title: "\(detail.user.nick) · \(app.name)", content: view, app: app)
        }
        action(group, "ban") { app, userID, visit in
            let request = AdminBanRequest(reason: visit.form["reason"] ?? "", until: try BanDuration.until(visit.field("duration")))
            _ = try await desk.ban(app, userID, request, by: visit.op)
            return "banned"
        }
        action(group, "unban") { app, userID, visit in
            try await desk.unban(app, userID, by: visit.op)
            return "unbanned"
        }
        action(group, "sign-out") { app, userID, visit in
            _ = try await desk.signOut(app, userID, by: visit.op)
            return "signed-out"
        }
        console.action(group, "/admin/apps/{app_id}/users/{user_id}/delete") { _, context, visit in
            let app = try visit.app(context)
            guard visit.form["confirm"] == "yes" else { throw ServiceError.badRequest("tick the box to confirm the deletion") }
            try await desk.delete(app, try context.parameters.require("user_id"), by: visit.op)
            return ConsoleRenderer.redirect("/admin/apps/\(app.appID)/users?done=deleted")
        }
    }

    /// `POST …/users/{user_id}/<name>`, back to the user's page with the notice `act` names.
    private func action(
        _ group: ServiceApplication.Group, _ name: String, _ act: @escaping @Sendable (AppInfo, String, Console.Visit) async throws -> String
    ) {
        console.action(group, RouterPath("/admin/apps/{app_id}/users/{user_id}/" + name)) { _, context, visit in
            let app = try visit.app(context)
            let userID = try context.parameters.require("user_id")
            let done = try await act(app, userID, visit)
            return ConsoleRenderer.redirect("/admin/apps/\(app.appID)/users/\(userID)?done=\(done)")
        }
    }
}
