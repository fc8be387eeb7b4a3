import Contracts
import Hummingbird
import HummingbirdTesting
import Logging
import ServiceKit
import XCTest

/// The `/health` + `/metrics` contract every service answers, checked on its real application.
package enum HealthContract {
    /// Assembles the service the way its executable does (temporary data folder) and checks it.
    package static func check(
        _ assemble: ServiceMain.Assembler,
        service: ServiceName, file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        let common = TestEnvironment.common(service, dataDirectory: try TestEnvironment.temporaryDirectory())
        let app = try await assemble(common, ConfigReader(environment: [:]), TestEnvironment.logger).application()
        try await check(app, service: service, file: file, line: line)
    }

    package static func check(_ app: some ApplicationProtocol, service: ServiceName, file: StaticString = #filePath, line: UInt = #line) async throws
    {
        try await app.test(.router) { client in
            let health = try await client.execute(uri: "/health", method: .get)
            XCTAssertEqual(health.status, .ok, file: file, line: line)
            let object = try JSON.object(health.body)
            JSON.assertKeys(object, ["service", "status", "pid", "uptime_seconds"], file: file, line: line)
            XCTAssertEqual(object["service"] as? String, service.rawValue, file: file, line: line)
            let metrics = try await client.execute(uri: "/metrics", method: .get)
            XCTAssertEqual(metrics.status, .ok, file: file, line: line)
            XCTAssertTrue(metrics.body.text.contains("http_requests_total"), file: file, line: line)
            let unknown = try await client.execute(uri: "/v1/anything", method: .get)
            XCTAssertEqual(unknown.status.code, 444, file: file, line: line)
            XCTAssertEqual(try JSON.object(unknown.body)["code"] as? String, "unknown_route", file: file, line: line)
        }
    }
}
