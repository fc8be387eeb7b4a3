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
    let gatewayURL: String
    let dataDirectory: String

    static let appKey = "integration-app-key"

    static func start(_ extra: [String: String] = [:], beforeStart: (String) async throws -> Void = { _ in }) async throws -> AuthAndGateway {
        let dataDirectory = try TestEnvironment.temporaryDirectory()
        try await beforeStart(dataDirectory)
        let authPort = try FreePort.pick(), gatewayPort = try FreePort.pick()
        var environment = ProcessInfo.processInfo.environment
        environment["INTERNAL_SECRET"] = TestEnvironment.internalSecret
        environment["DATA_DIR"] = dataDirectory
        environment["AUTH_SVC_URL"] = "http://127.0.0.1:\(authPort)"
        environment["AUTH_DEV_APP_KEY"] = appKey
        environment["AUTH_BCRYPT_COST"] = "4"
        environment.merge(extra) { $1 }
        let auth = try RunningProcess("auth-svc", environment: environment.merging(["PORT": "\(authPort)"]) { $1 })
        let gateway = try RunningProcess("gateway", environment: environment.merging(["PORT": "\(gatewayPort)"]) { $1 })
        _ = try await auth.line(containing: "listening on")
        _ = try await gateway.line(containing: "listening on")
        return AuthAndGateway(auth: auth, gateway: gateway, gatewayURL: "http://127.0.0.1:\(gatewayPort)", dataDirectory: dataDirectory)
    }

    func stop() async {
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
