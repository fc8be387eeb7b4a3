import Contracts
import Hummingbird
import ServiceKit

/// The request log (owners and admins): the gateway's kept requests by request id, status, app
/// or user; one request opened to its lines in every process's log.
struct RequestPages: Sendable {
    let console: Console
    let desk: RequestLogDesk

    struct SearchView {
        var query: RequestLogQuery
        var status: String
        var entries: [RequestLogEntry]
    }

    struct TraceView {
        var requestID: String
        var trace: RequestTrace
        var unreachable: String?
    }

    func register(on group: ServiceApplication.Group) {
        console.page(group, "/admin/requests") { request, _, visit in
            let query = try RequestLogDesk.query(request.uri.queryParameters)
            let view = SearchView(query: query, status: query.status.map(String.init) ?? "", entries: try await desk.search(query, by: visit.op))
            return Console.Page(template: "requests", title: "Request log", content: view)
        }
        console.page(group, "/admin/requests/{request_id}") { _, context, visit in
            let requestID = try context.parameters.require("request_id")
            let trace = try await desk.trace(requestID, by: visit.op)
            let view = TraceView(
                requestID: requestID, trace: trace, unreachable: trace.unreachable.isEmpty ? nil : trace.unreachable.joined(separator: ", "))
            return Console.Page(template: "request", title: "Request \(requestID)", content: view)
        }
    }
}
