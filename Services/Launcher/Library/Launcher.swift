import AsyncHTTPClient
import Contracts
import Foundation
import Logging
import ServiceKit
import ServiceLifecycle

/// `glint`: the whole suite on one machine.
public enum Launcher {
    public static func run(basePort: Int, dataDirectory: String) async throws {
        let output = PrefixedOutput()
        let plan = try LaunchPlan(
            basePort: basePort,
            dataDirectory: URL(fileURLWithPath: dataDirectory).standardizedFileURL.path,
            baseEnvironment: ProcessInfo.processInfo.environment
        )
        let supervisor = Supervisor(plan: plan, executable: selfExecutable(), output: output, http: HTTPClient.shared)
        var logger = Logger(label: "glint")
        logger.logLevel = .warning
        let group = ServiceGroup(configuration: .init(
            services: [.init(service: supervisor, successTerminationBehavior: .gracefullyShutdownGroup)],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        ))
        try await group.run()
    }

    /// Children are this same binary in `serve` mode, so `swift run glint` needs nothing else built.
    static func selfExecutable() -> URL {
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: resolved)
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
    }
}
