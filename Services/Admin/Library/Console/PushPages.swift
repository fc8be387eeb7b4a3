import Contracts
import Hummingbird
import ServiceKit

/// An app's push (owners and admins): deliveries per provider over a window, the latest
/// failures, and a test notification to one user's devices.
struct PushPages: Sendable {
    let console: Console
    let desk: PushDesk

    struct View {
        var appID: String
        var hours: Int
        var windows: [Choice]
        var stats: PushStats
    }

    func register(on group: ServiceApplication.Group) {
        console.page(group, "/admin/apps/{app_id}/push") { request, context, visit in
            let app = try visit.app(context)
            let hours = try PushDesk.hours(request.uri.queryParameters["hours"])
            let view = View(
                appID: app.appID, hours: hours,
                windows: [("1", "1 hour"), ("24", "1 day"), ("168", "7 days"), ("720", "30 days")].map {
                    Choice(value: $0.0, label: $0.1, selected: $0.0 == String(hours))
                }, stats: try await desk.stats(hours: hours, app: app, by: visit.op))
            return Console.Page(template: "push", title: "Push · \(app.name)", content: view, app: app)
        }
        console.action(group, "/admin/apps/{app_id}/push/test") { _, context, visit in
            let app = try visit.app(context)
            let userID = (visit.form["user_id"] ?? "").trimmingCharacters(in: .whitespaces)
            let answer = try await desk.test(
                userID, TestPushRequest(title: visit.form["title"] ?? "", body: visit.form["body"] ?? ""), app: app, by: visit.op)
            return ConsoleRenderer.redirect(
                "/admin/apps/\(app.appID)/push?done=\(answer.deliveries > 0 ? "test-push" : "test-push-none")")
        }
    }
}
