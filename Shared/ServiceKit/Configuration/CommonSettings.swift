import Contracts
import Logging

/// Variables every service process reads.
package enum CommonSettings {
    package static let host = ConfigVariable("HOST", default: "127.0.0.1", "address to listen on")
    package static let port = ConfigVariable(
        "PORT", default: nil, "port to listen on; defaults to the service's own (gateway 8080, auth-svc 8081 … push-svc 8086)")
    package static let dataDirectory = ConfigVariable("DATA_DIR", default: "data", "folder for the service's SQLite file and stored files")
    package static let logLevel = ConfigVariable("LOG_LEVEL", default: "info", "trace, debug, info, notice, warning, error or critical")
    package static let internalSecret = ConfigVariable(
        "INTERNAL_SECRET", default: nil, "shared secret of service-to-service calls (at least 16 characters)")
    package static let parentPID = ConfigVariable("GLINT_PARENT_PID", default: "", "set by the launcher: the process exits when its launcher is gone")

    /// `AUTH_SVC_URL`, `CHAT_SVC_URL`, … with local defaults; `GATEWAY_URL` (every gateway replica)
    /// is where admin-svc reads the request log.
    package static func url(of service: ServiceName) -> ConfigVariable {
        ConfigVariable(
            service.urlVariable, default: "http://127.0.0.1:\(service.defaultPort)",
            "base URL of \(service.rawValue); several, comma-separated, are replicas the gateway balances (other services call the first)"
        )
    }

    package static var all: [ConfigVariable] {
        [host, port, dataDirectory, logLevel, internalSecret, parentPID] + ServiceName.allCases.map(url(of:))
    }
}

/// What every service knows about its place in the suite.
package struct CommonConfiguration: Sendable {
    package var service: ServiceName
    package var host: String
    package var port: Int
    package var dataDirectory: String
    package var logLevel: Logger.Level
    package var internalSecret: String
    /// Each service's base URL, or its replicas' URLs separated by commas.
    package var serviceURLs: [ServiceName: String]
    package var parentPID: Int32?

    package init(
        service: ServiceName, host: String = "127.0.0.1", port: Int, dataDirectory: String,
        logLevel: Logger.Level = .info, internalSecret: String, serviceURLs: [ServiceName: String] = [:], parentPID: Int32? = nil
    ) {
        self.service = service
        self.host = host
        self.port = port
        self.dataDirectory = dataDirectory
        self.logLevel = logLevel
        self.internalSecret = internalSecret
        self.serviceURLs = serviceURLs
        self.parentPID = parentPID
    }

    package init(service: ServiceName, reader: ConfigReader) throws {
        var secret = try reader.string(CommonSettings.internalSecret)
        // Empty only when missing, which the read above has reported.
        if !secret.isEmpty, secret.count < 16 {
            secret = try reader.refuse(CommonSettings.internalSecret, "must be at least 16 characters", standIn: secret)
        }
        let levelName = try reader.string(CommonSettings.logLevel).lowercased()
        let level =
            try Logger.Level(rawValue: levelName)
            ?? reader.refuse(
                CommonSettings.logLevel, "must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))", standIn: .info
            )
        var urls: [ServiceName: String] = [:]
        for service in ServiceName.allCases {
            urls[service] = try reader.urls(CommonSettings.url(of: service)).joined(separator: ",")
        }
        let parent = try reader.string(CommonSettings.parentPID)
        var parentPID: Int32?
        if !parent.isEmpty {
            if let pid = Int32(parent), pid > 0 {
                parentPID = pid
            } else {
                parentPID = try reader.refuse(CommonSettings.parentPID, "must be a process id, got '\(parent)'", standIn: nil)
            }
        }
        self.init(
            service: service,
            host: try reader.string(CommonSettings.host),
            port: try reader.int(CommonSettings.port, in: 0...65535, default: service.defaultPort),
            dataDirectory: try reader.string(CommonSettings.dataDirectory),
            logLevel: level,
            internalSecret: secret,
            serviceURLs: urls,
            parentPID: parentPID
        )
    }

    /// `<DATA_DIR>/<service>.sqlite`
    package var databasePath: String { dataDirectory + "/" + service.rawValue + ".sqlite" }

    /// The service's URL (its first replica's).
    package func url(of service: ServiceName) -> String {
        urls(of: service)[0]
    }

    /// Every replica's URL, in the order given.
    package func urls(of service: ServiceName) -> [String] {
        let urls = serviceURLs[service]?.split(separator: ",").map(String.init) ?? []
        return urls.isEmpty ? ["http://127.0.0.1:\(service.defaultPort)"] : urls
    }
}
