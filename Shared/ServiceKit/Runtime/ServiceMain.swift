import Contracts
import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// What a service executable does: read configuration (a bad value stops the process with the
/// variable's name), set up logging, assemble the service, run it until SIGTERM/SIGINT.
package enum ServiceMain {
    package typealias Assembler = @Sendable (CommonConfiguration, ConfigReader, Logger) async throws -> ServiceAssembly

    package static func run(
        _ service: ServiceName, environment: [String: String] = ProcessInfo.processInfo.environment, assemble: Assembler
    ) async -> Never {
        // Request handlers run on the event loop that read the request instead of on Swift's
        // own pool beside the loops: otherwise every request crosses threads twice (loop →
        // pool → loop), a wake-up and a context switch each way. Nothing here blocks a thread
        // (bcrypt, snapshots and archives run on NIO's thread pool; GRDB on its own queues).
        let onEventLoops = EventLoopGlobalExecutor.install()
        do {
            // Every invalid variable is named in one start: each service's configuration ends
            // with `reader.finish()`, which throws them all, and so does this after assembly.
            let reader = ConfigReader(environment: environment, collectingProblems: true)
            let common = try CommonConfiguration(service: service, reader: reader)
            LogSetup.bootstrap()
            var logger = Logger(label: service.rawValue)
            logger.logLevel = common.logLevel
            logger.debug("concurrency", metadata: ["executor": .string(onEventLoops ? "event loops" : "default pool")])
            let assembly = try await assemble(common, reader, logger)
            try reader.finish()
            let app = assembly.application()
            try await runUntilShutdown(app, parentPID: common.parentPID, logger: logger)
            exit(0)
        } catch let error as ConfigurationError {
            FileHandle.standardError.write(Data("\(service.rawValue): \(error)\n".utf8))
            exit(78)
        } catch let error as ConfigurationErrors {
            for line in error.errors { FileHandle.standardError.write(Data("\(service.rawValue): \(line)\n".utf8)) }
            exit(78)
        } catch {
            FileHandle.standardError.write(Data("\(service.rawValue): fatal: \(error)\n".utf8))
            exit(1)
        }
    }

    static func runUntilShutdown(_ app: any ApplicationProtocol, parentPID: Int32?, logger: Logger) async throws {
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [.init(service: app)]
        if let parentPID {
            services.append(.init(service: ParentWatch(parentPID: parentPID, logger: logger), successTerminationBehavior: .gracefullyShutdownGroup))
        }
        let group = ServiceGroup(configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }
}
