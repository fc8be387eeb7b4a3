import Contracts
import Hummingbird
import ServiceClients
import ServiceKit

/// The gateway's request log for owners and admins, shared by the admin API and the console:
/// entries by request id, status, app or user; one request followed through every process's log.
/// Admins see their apps' requests; requests no app was resolved for are owners' alone.
struct RequestLogDesk: Sendable {
    let access: OperatorAccess
    let log: RequestLogClient

    /// `?request_id=&status=&app=&user=&limit=`.
    static func query(_ parameters: Parameters) throws -> RequestLogQuery {
        func text(_ name: String) throws -> String? {
            guard let value = parameters[name[...]].map(String.init), !value.isEmpty else { return nil }
            guard value.utf8.count <= 64 else { throw ServiceError.badRequest("\(name) is at most 64 characters") }
            return value
        }
        var query = RequestLogQuery(requestId: try text("request_id"), appId: try text("app"), userId: try text("user"))
        if let status = try text("status") {
            guard let code = Int(status), (100...599).contains(code) else { throw ServiceError.badRequest("status must be an HTTP status") }
            query.status = code
        }
        if let limit = try text("limit") {
            guard let value = Int(limit), (1...500).contains(value) else { throw ServiceError.badRequest("limit must be 1 to 500") }
            query.limit = value
        }
        return query
    }

    func search(_ query: RequestLogQuery, by op: SignedInOperator) async throws -> [RequestLogEntry] {
        guard op.record.role != .moderator else { throw ServiceError(.forbidden, "the request log is for owners and admins") }
        let entries = try await log.search(query, op.requestID)
        guard op.record.role != .owner else { return entries }
        let covered = Set(try await access.apps(for: op.record).map(\.appID))
        return entries.filter { $0.appId.map(covered.contains) ?? false }
    }

    /// The request's entry (if the gateway kept it and the operator may see it) and every
    /// process's lines of it.
    func trace(_ requestID: String, by op: SignedInOperator) async throws -> RequestTrace {
        guard !requestID.isEmpty, requestID.utf8.count <= 64 else { throw ServiceError.notFound("no such request") }
        let entry = try await search(RequestLogQuery(requestId: requestID, limit: 1), by: op).first
        // An admin follows only requests of its apps through the services' logs.
        guard entry != nil || op.record.role == .owner else { throw ServiceError.notFound("no such request in your apps") }
        let (lines, unreachable) = await log.lines(requestID, op.requestID)
        return RequestTrace(entry: entry, lines: lines, unreachable: unreachable)
    }
}
