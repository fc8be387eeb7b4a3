import Contracts
import Hummingbird
import ServiceKit

/// `GET /admin/api/audit?app=&operator=&action=&before=&limit=`: newest first; owners read all,
/// admins their apps', moderators none. There is no route that changes a line.
struct AuditRoutes: Sendable {
    let gate: OperatorGate
    let access: OperatorAccess
    let audit: AuditLog

    func register(on group: ServiceApplication.Group) {
        group.get("/admin/api/audit") { request, context -> Response in
            let op = try await gate.admit(request, context)
            let scope = try OperatorAccess.auditScope(for: op.record, apps: op.record.role == .owner ? [] : try await access.apps(for: op.record))
            let query = request.uri.queryParameters
            func text(_ name: String) throws -> String? {
                guard let value = query[name[...]].map(String.init), !value.isEmpty else { return nil }
                guard value.utf8.count <= 64 else { throw ServiceError.badRequest("\(name) is too long") }
                return value
            }
            var filter = AuditQuery(apps: scope, appID: try text("app"), operatorID: try text("operator"), action: try text("action"))
            if let before = try text("before") {
                guard let time = GlintDate.milliseconds(from: before) else { throw ServiceError.badRequest("before must be a date") }
                filter.before = time
            }
            if let limit = try text("limit") {
                guard let value = Int(limit), (1...200).contains(value) else { throw ServiceError.badRequest("limit must be 1 to 200") }
                filter.limit = value
            }
            return JSONCoding.response(body: try await audit.entries(filter))
        }
    }
}
