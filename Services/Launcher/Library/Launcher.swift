import AsyncHTTPClient
import Contracts
import Foundation
import Logging
import MarketService
import PaymentVerifyService
import ServiceKit
import ServiceLifecycle
import Simulators

/// `glint`: the whole suite on one machine.
package enum Launcher {
    /// `simulatePortOne`: payment-verify-svc talks to a local PortOne simulator (development
    /// without PortOne credentials; payments are created with `POST <its URL>/simulator/payments`).
    /// `simulateKakao`: market-svc's book search goes to a local Kakao simulator (a catalogue of
    /// Korean classics) instead of Kakao, which needs a REST key.
    package static func run(basePort: Int, dataDirectory: String, simulatePortOne: Bool = false, simulateKakao: Bool = false) async throws {
        let output = PrefixedOutput()
        var environment = ProcessInfo.processInfo.environment
        var simulator: PortOneSimulator?
        if simulatePortOne {
            let started = try await PortOneSimulator.start()
            environment[PaymentSettings.apiURL.name] = started.url
            environment[PaymentSettings.impKey.name] = PortOneSimulator.key
            environment[PaymentSettings.impSecret.name] = PortOneSimulator.secret
            output.line(
                from: "glint",
                "PortOne simulator on \(started.url); create a payment: curl -X POST \(started.url)/simulator/payments "
                    + #"-H 'Content-Type: application/json' -d '{"merchant_uid":"<order_code>","amount":<total_price>}'"#)
            simulator = started
        }
        var kakao: KakaoBookSimulator?
        if simulateKakao {
            let started = try await KakaoBookSimulator.start()
            environment[MarketSettings.kakaoBookURL.name] = started.url
            environment[MarketSettings.kakaoRestKey.name] = KakaoBookSimulator.restKey
            output.line(from: "glint", "Kakao book search simulator on \(started.url)")
            kakao = started
        }
        let plan = try LaunchPlan(
            basePort: basePort,
            dataDirectory: URL(fileURLWithPath: dataDirectory).standardizedFileURL.path,
            baseEnvironment: environment
        )
        let supervisor = Supervisor(plan: plan, executable: selfExecutable(), output: output, http: HTTPClient.shared)
        let backups = try BackupSettings(reader: ConfigReader(environment: environment))
        let scheduler = backups.schedule.map { schedule in
            BackupScheduler(settings: backups, schedule: schedule, dataDirectory: plan.dataDirectory) { output.line(from: "glint", $0) }
        }
        var logger = Logger(label: "glint")
        logger.logLevel = .warning
        let group = ServiceGroup(
            configuration: .init(
                services: [.init(service: supervisor, successTerminationBehavior: .gracefullyShutdownGroup)]
                    + (scheduler.map { [.init(service: $0)] } ?? []),
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            ))
        try await group.run()
        await simulator?.stop()
        await kakao?.stop()
    }

    /// An FCM simulator on a free port: writes the service account push-svc needs, prints its URL
    /// and serves until SIGINT/SIGTERM.
    package static func simulateFCM(accountFile: String) async throws {
        let simulator = try await FCMSimulator.start()
        try simulator.serviceAccountJSON.write(toFile: accountFile, atomically: true, encoding: .utf8)
        PrefixedOutput().line(from: "fcm-sim", "FCM simulator on \(simulator.url)")
        var logger = Logger(label: "glint")
        logger.logLevel = .warning
        try await ServiceGroup(
            configuration: .init(
                services: [.init(service: UntilShutdown())], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger
            )
        ).run()
        await simulator.stop()
    }

    /// Waits for the group's graceful shutdown (a signal), then ends.
    struct UntilShutdown: Service {
        func run() async throws {
            try? await gracefulShutdown()
        }
    }

    /// Children are this same binary in `serve` mode, so `swift run glint` needs nothing else built.
    static func selfExecutable() -> URL {
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: resolved)
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
    }
}
