/// `GET /health` of one service.
package struct HealthReport: Codable, Sendable, Equatable {
    package var service: String
    package var status: String
    package var pid: Int32
    package var uptimeSeconds: Double

    package init(service: String, status: String, pid: Int32, uptimeSeconds: Double) {
        self.service = service
        self.status = status
        self.pid = pid
        self.uptimeSeconds = uptimeSeconds
    }

    enum CodingKeys: String, CodingKey {
        case service, status, pid
        case uptimeSeconds = "uptime_seconds"
    }
}

/// `GET /health` of the gateway: every backend's report, or why it could not be had.
package struct SuiteHealth: Codable, Sendable, Equatable {
    package var status: String
    package var services: [String: ServiceHealth]

    package init(status: String, services: [String: ServiceHealth]) {
        self.status = status
        self.services = services
    }
}

package struct ServiceHealth: Codable, Sendable, Equatable {
    package var status: String
    package var pid: Int32?
    package var error: String?

    package init(status: String, pid: Int32? = nil, error: String? = nil) {
        self.status = status
        self.pid = pid
        self.error = error
    }
}
