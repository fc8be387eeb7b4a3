import Contracts
import Foundation
import Launcher
import ServiceKit
import TestSupport
import XCTest

/// Each service assembled the way its executable does, its router read: every declared internal
/// endpoint is served by exactly the service that declares it, and every service serves exactly
/// the public routes the gateway's table gives it.
final class RouteRegistrationTests: XCTestCase {
    /// Method and path of every route of every process, paths with parameters as `{}`.
    private static func registeredRoutes() async throws -> [ServiceName: Set<String>] {
        var registered: [ServiceName: Set<String>] = [:]
        for service in ServiceName.allCases {
            let directory = try TestEnvironment.temporaryDirectory()
            let common = TestEnvironment.common(service, dataDirectory: directory)
            let assembly = try await ServiceCatalog.assembler(for: service)(common, ConfigReader(environment: [:]), TestEnvironment.logger)
            registered[service] = Set(assembly.routes.map { "\($0.method) \(normalized($0.path))" })
            try await assembly.discard()
        }
        return registered
    }

    private static func normalized(_ pattern: String) -> String {
        "/" + pattern.split(separator: "/").map { $0.hasPrefix("{") ? "{}" : String($0) }.joined(separator: "/")
    }

    func testEveryInternalEndpointIsServedByItsServiceAlone() async throws {
        let registered = try await Self.registeredRoutes()
        XCTAssertEqual(
            Set(InternalEndpoints.all.map { "\($0.method.rawValue) \($0.pattern)" }).count, InternalEndpoints.all.count, "declared once each")
        for endpoint in InternalEndpoints.all {
            XCTAssertEqual(endpoint.parameterNames.count, endpoint.parameterCount, "\(endpoint): its parameter type fills its path")
            let route = "\(endpoint.method.rawValue) \(Self.normalized(endpoint.pattern))"
            let servers = registered.filter { $0.value.contains(route) }.map(\.key)
            XCTAssertEqual(servers, [endpoint.service], "\(endpoint) is served by \(servers.map(\.rawValue))")
        }
    }

    /// The gateway forwards a route only to the service that serves it, and every route a service
    /// serves to clients is in the gateway's tables (keyed and mounted). (`/v1/data/<area>/**` is the services' one file
    /// segment; `/socket.io` is the Engine.IO endpoint, which chat-svc serves for every method.)
    func testTheGatewayTableIsWhatTheServicesServe() async throws {
        let registered = try await Self.registeredRoutes()
        let internalRoutes = Set(InternalEndpoints.all.map { "\($0.method.rawValue) \(Self.normalized($0.pattern))" })
        for service in ServiceName.backends {
            // Mounted apps' routes (API.md §9) reach services without their mount.
            let table = Set(
                (RouteTable.publicRoutes + RouteTable.quotehubRoutes).filter { $0.service == service }.map { route in
                    "\(route.method) \(Self.normalized(route.pattern.replacingOccurrences(of: "/**", with: "/{name}")))"
                })
            let served = (registered[service] ?? []).subtracting(internalRoutes).filter { route in
                // Every process's own: health, metrics and its log lines of a request; a copy of a
                // SQLite file (bytes, not an endpoint's JSON) for backups.
                !["GET /health", "GET /metrics", "GET /internal/log/{}", "GET " + InternalEndpoints.snapshotPath].contains(route)
                    && !(route.hasSuffix(" /socket.io") && !["GET /socket.io", "POST /socket.io"].contains(route))
            }
            var servedPublic = Set(served.map { $0.hasSuffix(" /socket.io") ? $0 + "/{}" : $0 })
            // The admin API and the console are wildcards in the table (`/admin/api/**`, `/admin/**`):
            // the service's own routes under each stand for it, method by method (the longer first).
            for route in table.filter({ $0.contains(" /admin/") && $0.hasSuffix("/{}") }).sorted(by: { $0.count > $1.count }) {
                let prefix = String(route.dropLast(2))
                let under = servedPublic.filter { ($0.hasPrefix(prefix) || $0 + "/" == prefix) && !table.contains($0) }
                XCTAssertFalse(under.isEmpty, "the gateway forwards \(route), which \(service.rawValue) serves nothing under")
                servedPublic.subtract(under)
                servedPublic.insert(route)
            }
            XCTAssertEqual(servedPublic.subtracting(table).sorted(), [], "\(service.rawValue) serves routes the gateway does not forward")
            XCTAssertEqual(table.subtracting(servedPublic).sorted(), [], "the gateway forwards routes \(service.rawValue) does not serve")
        }
    }
}
