import Contracts
import Hummingbird
import ServiceKit

/// Operators (owners): the list, adding one (its password and TOTP URI shown on the answer page
/// once, never again), changing role and apps, resetting TOTP, removing.
struct OperatorPages: Sendable {
    let console: Console
    let desk: OperatorDesk

    struct Row {
        var op: OperatorAnswer
        var apps: String
        var roles: [Choice]
        var isSelf: Bool
    }

    struct View {
        var operators: [Row]
        var roles: [Choice]
    }

    struct CredentialsView {
        var credentials: OperatorCredentials
    }

    func register(on group: ServiceApplication.Group) {
        console.page(group, "/admin/operators") { _, _, visit in
            let rows = try await desk.list(by: visit.op).map { op in
                Row(
                    op: op, apps: op.apps.joined(separator: ", "),
                    roles: Choice.list(OperatorRole.allCases.map(\.rawValue), selected: op.role.rawValue),
                    isSelf: op.id == visit.op.record.id)
            }
            return Console.Page(
                template: "operators", title: "Operators",
                content: View(operators: rows, roles: Choice.list(OperatorRole.allCases.map(\.rawValue), selected: "moderator")))
        }
        console.action(group, "/admin/operators") { _, _, visit in
            let added = try await desk.add(
                OperatorChange(email: visit.form["email"], role: try Self.role(visit), apps: Self.apps(visit)), by: visit.op)
            // Shown once, on this answer: a reload does not add another (the browser asks first).
            return console.render(Console.Page(template: "credentials", title: "Operator added", content: CredentialsView(credentials: added)), visit)
        }
        console.action(group, "/admin/operators/{operator_id}/role") { _, context, visit in
            let change = OperatorChange(email: nil, role: try Self.role(visit), apps: Self.apps(visit))
            _ = try await desk.change(try context.parameters.require("operator_id"), change, by: visit.op)
            return ConsoleRenderer.redirect("/admin/operators?done=operator-changed")
        }
        console.action(group, "/admin/operators/{operator_id}/reset-totp") { _, context, visit in
            let credentials = try await desk.resetTOTP(try context.parameters.require("operator_id"), by: visit.op)
            return console.render(
                Console.Page(template: "credentials", title: "TOTP reset", content: CredentialsView(credentials: credentials)), visit)
        }
        console.action(group, "/admin/operators/{operator_id}/remove") { _, context, visit in
            try await desk.remove(try context.parameters.require("operator_id"), by: visit.op)
            return ConsoleRenderer.redirect("/admin/operators?done=operator-removed")
        }
    }

    private static func role(_ visit: Console.Visit) throws -> OperatorRole {
        guard let role = visit.field("role").flatMap(OperatorRole.init(rawValue:)) else {
            throw ServiceError.badRequest("role must be owner, admin or moderator")
        }
        return role
    }

    /// The form's apps field: names or ids separated by commas.
    private static func apps(_ visit: Console.Visit) -> [String] {
        (visit.form["apps"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
