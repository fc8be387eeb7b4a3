import Contracts
import Foundation
import NIOCore
import NIOHTTP1
import ServiceKit
import TestSupport

/// auth-svc and the gateway as separate real processes on free ports, sharing a temporary data
/// folder: the smallest deployment that serves §1.
struct AuthAndGateway {
    let auth: RunningProcess
    let gateway: RunningProcess
    /// Further backends asked for (e.g. chat-svc), started the same way.
    let others: [RunningProcess]
    let gatewayURL: String
    let dataDirectory: String
    /// The environment and ports the processes were started with, to start one again.
    let environment: [String: String]
    let ports: [ServiceName: Int]

    static let appKey = "integration-app-key"

    /// `overrides`: settings of one process only, by executable name (e.g. auth-svc calling
    /// another market-svc replica than the gateway).
    static func start(
        _ extra: [String: String] = [:], with services: [ServiceName] = [], overrides: [String: [String: String]] = [:],
        beforeStart: (String) async throws -> Void = { _ in }
    ) async throws -> AuthAndGateway {
        let dataDirectory = try TestEnvironment.temporaryDirectory()
        try await beforeStart(dataDirectory)
        let authPort = try FreePort.pick(), gatewayPort = try FreePort.pick()
        var environment = ProcessInfo.processInfo.environment
        environment["INTERNAL_SECRET"] = TestEnvironment.internalSecret
        environment["DATA_DIR"] = dataDirectory
        environment["AUTH_SVC_URL"] = "http://127.0.0.1:\(authPort)"
        environment["GATEWAY_URL"] = "http://127.0.0.1:\(gatewayPort)"
        environment["AUTH_DEV_APP_KEY"] = appKey
        environment["AUTH_BCRYPT_COST"] = "4"
        var ports: [ServiceName: Int] = [:]
        for service in services {
            ports[service] = try FreePort.pick()
            environment[service.urlVariable] = "http://127.0.0.1:\(ports[service]!)"
        }
        // As the launcher sets it up: chat-svc's sockets are handed over, not relayed.
        if services.contains(.chat) { environment[SocketHandoff.path.name] = dataDirectory + "/chat-svc.handoff" }
        environment.merge(extra) { $1 }
        func settings(_ name: String, port: Int) -> [String: String] {
            environment.merging(overrides[name] ?? [:]) { $1 }.merging(["PORT": "\(port)"]) { $1 }
        }
        let auth = try RunningProcess("auth-svc", environment: settings("auth-svc", port: authPort))
        let gateway = try RunningProcess("gateway", environment: settings("gateway", port: gatewayPort))
        let others = try services.map { service in
            try RunningProcess(service.rawValue, environment: settings(service.rawValue, port: ports[service]!))
        }
        for process in [auth, gateway] + others { _ = try await process.line(containing: "listening on") }
        return AuthAndGateway(
            auth: auth, gateway: gateway, others: others, gatewayURL: "http://127.0.0.1:\(gatewayPort)", dataDirectory: dataDirectory,
            environment: environment, ports: ports)
    }

    /// The same suite reached through another gateway (one started with other settings).
    func through(gatewayAt url: String) -> AuthAndGateway {
        AuthAndGateway(
            auth: auth, gateway: gateway, others: others, gatewayURL: url, dataDirectory: dataDirectory, environment: environment, ports: ports)
    }

    /// The extra backend's process as first started.
    func process(_ service: ServiceName) -> RunningProcess? {
        others.first { $0.name == service.rawValue }
    }

    /// Starts an extra backend again on its port (after a test killed it); the caller stops it.
    func restart(_ service: ServiceName) async throws -> RunningProcess {
        let process = try RunningProcess(service.rawValue, environment: environment.merging(["PORT": "\(ports[service] ?? 0)"]) { $1 })
        _ = try await process.line(containing: "listening on")
        return process
    }

    /// `body` against the suite, which is stopped after it whether `body` threw or not.
    func running<Value>(_ body: (AuthAndGateway) async throws -> Value) async throws -> Value {
        do {
            let value = try await body(self)
            await stop()
            return value
        } catch {
            await stop()
            throw error
        }
    }

    func stop() async {
        for process in others { await process.stop() }
        await gateway.stop()
        await auth.stop()
    }

    /// A JSON call through the gateway with an app key and optional token / extra headers.
    func call(
        _ method: HTTPMethod, _ path: String, key: String = AuthAndGateway.appKey, token: String? = nil,
        headers: [(String, String)] = [], json: String? = nil
    ) async throws -> HTTPProbe.Answer {
        var all = [("SeSACKey", key)] + headers
        if let token { all.append(("Authorization", token)) }
        if json != nil { all.append(("Content-Type", "application/json")) }
        return try await HTTPProbe.call(method, gatewayURL + path, headers: all, body: json.map { .init(string: $0) })
    }
}
