/// `GET /health` of one service.
public struct HealthReport: Codable, Sendable, Equatable {
    public var service: String
    public var status: String
    public var pid: Int32
    public var uptimeSeconds: Double

    public init(service: String, status: String, pid: Int32, uptimeSeconds: Double) {
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
public struct SuiteHealth: Codable, Sendable, Equatable {
    public var status: String
    public var services: [String: ServiceHealth]

    public init(status: String, services: [String: ServiceHealth]) {
        self.status = status
        self.services = services
    }
}

public struct ServiceHealth: Codable, Sendable, Equatable {
    public var status: String
    public var pid: Int32?
    public var error: String?

    public init(status: String, pid: Int32? = nil, error: String? = nil) {
        self.status = status
        self.pid = pid
        self.error = error
    }
}
