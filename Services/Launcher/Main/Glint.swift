import ArgumentParser
import Contracts
import Launcher
import ServiceKit

@main
struct Glint: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "glint", abstract: "Runs the Glint Backend suite locally.",
        subcommands: [Start.self, Serve.self, Probe.self, SimulateFCM.self], defaultSubcommand: Start.self
    )

    struct Start: AsyncParsableCommand {
        @Option(help: "gateway port; services use the next six (0 = free ports)") var portBase = ServiceName.defaultBasePort
        @Option(help: "folder for every service's SQLite file and stored files") var dataDir = "data"
        @Flag(help: "run a local PortOne simulator for payment-verify-svc (development without PortOne credentials)") var simulatePortone = false
        @Flag(help: "run a local Kakao book search simulator for market-svc (quotehub book search without a Kakao key)") var simulateKakao = false

        func run() async throws {
            try await Launcher.run(basePort: portBase, dataDirectory: dataDir, simulatePortOne: simulatePortone, simulateKakao: simulateKakao)
        }
    }

    struct Serve: AsyncParsableCommand {
        @Argument(help: "gateway, auth-svc, chat-svc, market-svc, geo-svc, payment-verify-svc or push-svc") var service: String

        func run() async throws {
            guard let name = ServiceName(rawValue: service) else { throw ValidationError("unknown service \(service)") }
            await ServiceMain.run(name, assemble: ServiceCatalog.assembler(for: name))
        }
    }

    struct SimulateFCM: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "simulate-fcm", abstract: "Runs an FCM HTTP v1 simulator (benchmarks, development) until interrupted."
        )
        @Option(help: "where to write the service-account JSON push-svc should use") var accountFile: String

        func run() async throws {
            try await Launcher.simulateFCM(accountFile: accountFile)
        }
    }

    struct Probe: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Exits 0 when the URL answers 200 (container health checks).")
        @Argument var url: String

        func run() async throws {
            guard await HealthProbe.isHealthy(url) else { throw ExitCode(1) }
        }
    }
}
