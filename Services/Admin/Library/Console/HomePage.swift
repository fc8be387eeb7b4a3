import Contracts
import Hummingbird
import ServiceKit

/// `/admin?app=&days=`: the overview — every app the operator sees with its open reports (the
/// oldest red past a day), and for the chosen app (owners: every app by default) its users,
/// content and messages per day as small charts, open reports, today's payments, push, and each
/// process's health and request rates, and the last backup.
struct HomePage: Sendable {
    let console: Console
    let reports: ReportDesk
    let overview: OverviewDesk

    struct AppRow {
        var id: String
        var name: String
        var profile: String
        var mount: String?
        var openGroups: Int
        var oldest: String?
        var overdue: Bool
    }

    struct ProcessRow {
        var service: String
        var status: String
        var ok: Bool
        var requests: String
        var errors: String
        var points: String
    }

    /// The last backup: red when it failed.
    struct BackupLine {
        var text: String
        var failed: Bool

        init(_ health: BackupHealth) {
            let ended = GlintDate.string(fromMilliseconds: health.lastRunAt)
            let success = health.lastSuccessAt.map {
                "; last snapshot " + (health.lastSnapshot ?? "") + " at " + GlintDate.string(fromMilliseconds: $0)
            }
            text =
                health.status == "ok"
                ? "snapshot \(health.lastSnapshot ?? "") taken at \(ended)"
                : "failed at \(ended): \(health.error ?? "")" + (success ?? "; none has succeeded yet")
            failed = health.status != "ok"
        }
    }

    struct View {
        var apps: [AppRow]
        var none: Bool
        var scopes: [Choice]
        var windows: [Choice]
        var overview: Overview
        var charts: [Chart]
        var oldest: String?
        var overdue: Bool
        var processes: [ProcessRow]
        var backup: BackupLine?
        var unavailable: String?
        var chartWidth = Chart.width
        var chartHeight = Chart.height
    }

    func register(on group: ServiceApplication.Group) {
        console.page(group, "/admin") { request, _, visit in
            var rows: [AppRow] = []
            var pending: [String: OpenReportsSummary] = [:]
            for app in visit.apps {
                let open = try await reports.pending(app, by: visit.op)
                pending[app.appID] = open
                let oldest = open.oldestAgeSeconds
                rows.append(
                    AppRow(
                        id: app.appID, name: app.name, profile: app.profile.rawValue, mount: app.mount, openGroups: open.groups,
                        oldest: oldest.map(Age.text), overdue: (oldest ?? 0) > 24 * 3600))
            }
            let query = request.uri.queryParameters
            let owner = visit.op.record.role == .owner
            let chosen = query["app"].map(String.init).flatMap { $0.isEmpty ? nil : $0 } ?? (owner ? nil : visit.apps.first?.appID)
            let days = try OverviewDesk.days(query["days"])
            guard chosen != nil || owner else {
                return Console.Page(template: "home", title: "Overview", content: View.empty(rows))
            }
            let shown = try await overview.overview(app: chosen, days: days, by: visit.op, pending: pending)
            let oldest = shown.oldestReportAgeSeconds
            let charts = [
                shown.users.map { Chart("New users", $0.newUsers) }, shown.users.map { Chart("Active users", $0.activeUsers) },
                shown.content.map { Chart("Posts", $0.posts) }, shown.content.map { Chart("Book stories", $0.stories) },
                shown.messages.map { Chart("Messages", $0.messages) },
            ].compactMap { $0 }
            let view = View(
                apps: rows, none: rows.isEmpty,
                scopes: (owner ? [Choice(value: "", label: "every app", selected: chosen == nil)] : [])
                    + visit.apps.map { Choice(value: $0.appID, label: $0.name, selected: $0.appID == chosen) },
                windows: ["7", "30"].map { Choice(value: $0, label: "\($0) days", selected: $0 == String(days)) }, overview: shown,
                charts: charts, oldest: oldest.map(Age.text), overdue: (oldest ?? 0) > 24 * 3600,
                processes: shown.processes.map { process in
                    ProcessRow(
                        service: process.service, status: process.status, ok: process.status == "ok",
                        requests: process.requestsPerSecond.map { String(format: "%.2f/s", $0) } ?? "—",
                        errors: process.errorsPerSecond.map { String(format: "%.2f/s", $0) } ?? "—", points: Chart.points(process.recent))
                }, backup: shown.backup.map(BackupLine.init),
                unavailable: shown.unavailable.isEmpty ? nil : shown.unavailable.joined(separator: ", "))
            return Console.Page(template: "home", title: "Overview", content: view)
        }
    }
}

extension HomePage.View {
    /// An operator without any app: nothing to show but that.
    static func empty(_ rows: [HomePage.AppRow]) -> HomePage.View {
        HomePage.View(
            apps: rows, none: true, scopes: [], windows: [],
            overview: Overview(
                appId: nil, days: 7, users: nil, content: nil, messages: nil, paymentsToday: nil, openReports: nil, oldestReportAgeSeconds: nil,
                push: nil, processes: [], unavailable: []), charts: [], oldest: nil, overdue: false, processes: [], backup: nil, unavailable: nil)
    }
}
