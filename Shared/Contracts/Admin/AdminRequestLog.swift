/// The gateway's request log and the services' log lines of one request (issue 36).

/// A request as the gateway logged it: never a body, a token or a query string.
package struct RequestLogEntry: Codable, Sendable, Equatable {
    package var at: String
    package var requestId: String
    package var method: String
    /// The route's pattern (`/v1/posts/{post_id}`), or the path's first segment when no route matched.
    package var route: String
    package var status: Int
    package var latencyMs: Double
    package var appId: String?
    package var appName: String?
    /// The access token's subject, as the client sent it (the gateway does not verify tokens).
    package var userId: String?
    /// Kept as one of the sampled successes rather than as an error.
    package var sampled: Bool

    package init(
        at: String, requestId: String, method: String, route: String, status: Int, latencyMs: Double, appId: String?, appName: String?,
        userId: String?, sampled: Bool
    ) {
        (self.at, self.requestId, self.method, self.route, self.status, self.latencyMs) = (at, requestId, method, route, status, latencyMs)
        (self.appId, self.appName, self.userId, self.sampled) = (appId, appName, userId, sampled)
    }
}

/// admin-svc → gateway: entries newest first, each given criterion met.
package struct RequestLogQuery: Codable, Sendable, Equatable {
    package var requestId: String?
    package var status: Int?
    package var appId: String?
    package var userId: String?
    package var limit: Int

    package init(requestId: String? = nil, status: Int? = nil, appId: String? = nil, userId: String? = nil, limit: Int = 100) {
        (self.requestId, self.status, self.appId, self.userId, self.limit) = (requestId, status, appId, userId, limit)
    }
}

/// One line of a service's log that carried a request's id.
package struct ServiceLogLine: Codable, Sendable, Equatable {
    package var at: String
    package var service: String
    package var level: String
    package var message: String
    package var metadata: [String: String]

    package init(at: String, service: String, level: String, message: String, metadata: [String: String]) {
        (self.at, self.service, self.level, self.message, self.metadata) = (at, service, level, message, metadata)
    }
}

/// `GET /admin/api/requests/{request_id}`: the gateway's entry (if it kept one) and every
/// service's lines for the request, in time order.
package struct RequestTrace: Codable, Sendable, Equatable {
    package var entry: RequestLogEntry?
    package var lines: [ServiceLogLine]
    /// Services that could not be asked.
    package var unreachable: [String]

    package init(entry: RequestLogEntry?, lines: [ServiceLogLine], unreachable: [String]) {
        (self.entry, self.lines, self.unreachable) = (entry, lines, unreachable)
    }
}
