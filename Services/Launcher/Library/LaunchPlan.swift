import Contracts
import Foundation
import ServiceKit

/// Ports, folder and environment of the eight children of one launch.
package struct LaunchPlan: Sendable {
    package var ports: [ServiceName: Int]
    package var dataDirectory: String
    package var internalSecret: String
    package var baseEnvironment: [String: String]

    /// `basePort` 0 picks free ports (tests, parallel runs); otherwise gateway = base, auth-svc =
    /// base+1, … push-svc = base+6.
    package init(basePort: Int, dataDirectory: String, baseEnvironment: [String: String]) throws {
        var ports: [ServiceName: Int] = [:]
        for service in ServiceName.allCases {
            ports[service] = basePort == 0 ? try FreePort.pick() : basePort + service.portOffset
        }
        self.ports = ports
        self.dataDirectory = dataDirectory
        // A fresh secret per launch: only the children of this launch can call each other.
        var generator = SystemRandomNumberGenerator()
        self.internalSecret = Hex.encode((0..<24).map { _ in UInt8.random(in: 0...255, using: &generator) })
        self.baseEnvironment = baseEnvironment
    }

    package func port(of service: ServiceName) -> Int { ports[service]! }

    /// The gateway hands sockets to chat-svc through a Unix socket in the data folder, when its
    /// path fits a socket address (107 bytes); otherwise it relays them.
    var handoffPath: String? {
        let folder = URL(fileURLWithPath: dataDirectory).standardizedFileURL.path
        let path = folder + "/chat-svc.handoff"
        return path.utf8.count < 100 ? path : nil
    }

    package func environment(for service: ServiceName) -> [String: String] {
        var environment = baseEnvironment
        environment[CommonSettings.host.name] = "127.0.0.1"
        environment[CommonSettings.port.name] = String(port(of: service))
        environment[CommonSettings.dataDirectory.name] = dataDirectory
        environment[CommonSettings.internalSecret.name] = internalSecret
        environment[CommonSettings.parentPID.name] = String(getpid())
        for other in ServiceName.allCases {
            environment[other.urlVariable] = "http://127.0.0.1:\(port(of: other))"
        }
        if [.gateway, .chat].contains(service), environment[SocketHandoff.path.name] == nil, let path = handoffPath {
            environment[SocketHandoff.path.name] = path
        }
        return environment
    }
}
