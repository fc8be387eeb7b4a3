/// `GET /health` of one service.
package struct HealthReport: Codable, Sendable, Equatable {
    package var service: String
    package var status: String
    package var pid: Int32
    package var uptimeSeconds: Double
    /// admin-svc's only: how the last backup on its machine ended. A failed backup does not make
    /// the process unhealthy (it keeps serving), so it is reported beside the status.
    package var backup: BackupHealth?

    package init(service: String, status: String, pid: Int32, uptimeSeconds: Double, backup: BackupHealth? = nil) {
        self.service = service
        self.status = status
        self.pid = pid
        self.uptimeSeconds = uptimeSeconds
        self.backup = backup
    }

    enum CodingKeys: String, CodingKey {
        case service, status, pid, backup
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
    /// admin-svc's report of the last backup (`HealthReport.backup`).
    package var backup: BackupHealth?

    package init(status: String, pid: Int32? = nil, error: String? = nil, backup: BackupHealth? = nil) {
        self.status = status
        self.pid = pid
        self.error = error
        self.backup = backup
    }
}
