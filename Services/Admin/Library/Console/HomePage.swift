import Contracts
import Hummingbird
import ServiceKit

/// `/admin`: the apps the operator sees, each with its open report groups and the oldest's age
/// (red past a day), and the way into its queue, users and content.
struct HomePage: Sendable {
    let console: Console
    let reports: ReportDesk

    struct AppRow {
        var id: String
        var name: String
        var profile: String
        var mount: String?
        var openGroups: Int
        var oldest: String?
        var overdue: Bool
    }

    struct View {
        var apps: [AppRow]
        var none: Bool
    }

    func register(on group: ServiceApplication.Group) {
        console.page(group, "/admin") { _, _, visit in
            var rows: [AppRow] = []
            for app in visit.apps {
                let open = try await reports.pending(app, by: visit.op)
                let oldest = open.map(\.ageSeconds).max()
                rows.append(
                    AppRow(
                        id: app.appID, name: app.name, profile: app.profile.rawValue, mount: app.mount, openGroups: open.count,
                        oldest: oldest.map(Age.text), overdue: (oldest ?? 0) > 24 * 3600))
            }
            return Console.Page(template: "home", title: "Overview", content: View(apps: rows, none: rows.isEmpty))
        }
    }
}
