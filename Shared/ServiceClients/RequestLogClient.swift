import Contracts
import ServiceKit

/// The gateway's request log and every process's lines of one request, as admin-svc reads them
/// (issue 36): each gateway replica and each replica of each service is asked, since each keeps
/// its own. Tests start from `unimplemented`.
package struct RequestLogClient: Sendable {
    package var search: @Sendable (_ query: RequestLogQuery, _ requestID: String) async throws -> [RequestLogEntry]
    /// The lines, oldest first, and the processes that could not be asked.
    package var lines: @Sendable (_ ofRequest: String, _ requestID: String) async -> (lines: [ServiceLogLine], unreachable: [String])

    package static func live(_ client: InternalClient) -> RequestLogClient {
        RequestLogClient(
            search: { query, requestID in
                var found: [RequestLogEntry] = []
                for replica in client.replicas(of: .gateway) {
                    found += try await client.call(
                        InternalEndpoints.Gateway.requestLog, NoParameter(), body: query, for: .init(requestID: requestID), replica: replica)
                }
                return Array(found.sorted { $0.at > $1.at }.prefix(query.limit))
            },
            lines: { ofRequest, requestID in
                await withTaskGroup(of: (String, [ServiceLogLine]?).self) { group in
                    for service in ServiceName.allCases {
                        for replica in client.replicas(of: service) {
                            group.addTask {
                                let lines = try? await client.call(
                                    InternalEndpoints.requestLines(service), ofRequest, body: NoBody(), for: .init(requestID: requestID),
                                    replica: replica)
                                return (service.rawValue, lines)
                            }
                        }
                    }
                    var lines: [ServiceLogLine] = []
                    var unreachable: [String] = []
                    for await (service, found) in group {
                        if let found { lines += found } else { unreachable.append(service) }
                    }
                    return (lines.sorted { $0.at < $1.at }, Array(Set(unreachable)).sorted())
                }
            })
    }

    /// No call expected: the first one fails the running test.
    package static var unimplemented: RequestLogClient {
        RequestLogClient(
            search: { _, _ in throw Unimplemented.call("RequestLogClient.search") },
            lines: { _, _ in ([], ServiceName.allCases.map(\.rawValue)) })
    }
}
