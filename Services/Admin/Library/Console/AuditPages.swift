import Contracts
import Hummingbird
import ServiceKit

/// The audit log (owners and admins), newest first, filtered by app, operator, action and time;
/// the next page starts before the last line shown.
struct AuditPages: Sendable {
    let console: Console
    let desk: AuditDesk

    struct View {
        var entries: [AuditEntryAnswer]
        var app: String
        var operatorID: String
        var action: String
        var before: String
        var next: String?
    }

    func register(on group: ServiceApplication.Group) {
        console.page(group, "/admin/audit") { request, _, visit in
            let query = request.uri.queryParameters
            let filter = try AuditDesk.filter(query)
            let entries = try await desk.entries(filter, by: visit.op)
            func text(_ name: String) -> String { query[name[...]].map(String.init) ?? "" }
            var next: String?
            if entries.count == filter.limit, let last = entries.last {
                next =
                    "/admin/audit?"
                    + FormEncoding.encode(["app": text("app"), "operator": text("operator"), "action": text("action"), "before": last.at])
            }
            let view = View(
                entries: entries, app: text("app"), operatorID: text("operator"), action: text("action"), before: text("before"), next: next)
            return Console.Page(template: "audit", title: "Audit log", content: view)
        }
    }
}
