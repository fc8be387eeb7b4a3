import Contracts
import FileStorage
import Foundation
import Launcher
import PostgresStorage
import ServiceKit
import XCTest

/// The compose file, the Dockerfile and the README must agree with the code: every service
/// present, every variable it sets is one the code reads, every required variable set.
final class DeploymentFilesTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    func testComposeDeclaresEveryServiceWithItsEnvironment() throws {
        let compose = YAMLNode.parse(try Self.read("docker-compose.yml"))
        let services = try XCTUnwrap(compose["services"]).map
        // The `postgres` profile adds the database and a second chat-svc, the `s3` profile a bucket
        // server; nothing else.
        let profiled = services.filter { $0.value["profiles"] != nil }
        XCTAssertEqual(Set(services.keys).subtracting(profiled.keys), Set(ServiceName.allCases.map(\.rawValue)))
        XCTAssertEqual(Set(profiled.keys), ["postgres", "chat-svc-2", "s3"])
        for (name, entry) in profiled { XCTAssertEqual(entry["profiles"]?.text, name == "s3" ? "[\"s3\"]" : "[\"postgres\"]") }
        XCTAssertEqual(services["chat-svc-2"]?["environment"], services["chat-svc"]?["environment"], "the second replica is the first one again")
        XCTAssertEqual(services["chat-svc-2"]?["command"], services["chat-svc"]?["command"])
        let volumes = Set(try XCTUnwrap(compose["volumes"]).map.keys)

        for service in ServiceName.allCases {
            let entry = try XCTUnwrap(services[service.rawValue], service.rawValue)
            XCTAssertEqual(entry["command"]?.text, "[\"\(service.rawValue)\"]", "\(service.rawValue) runs its own executable")
            let environment = try XCTUnwrap(entry["environment"], "\(service.rawValue) environment").map
            let known = Set(ServiceCatalog.variables(for: service).map(\.name))
            for name in environment.keys {
                XCTAssertTrue(known.contains(name), "\(service.rawValue) sets \(name), which the code never reads")
            }
            for variable in ServiceCatalog.variables(for: service) where variable.defaultValue == nil && variable.name != "PORT" {
                XCTAssertNotNil(environment[variable.name], "\(service.rawValue) needs \(variable.name)")
            }
            XCTAssertEqual(environment["PORT"]?.text, String(service.defaultPort))
            XCTAssertEqual(environment["HOST"]?.text, "0.0.0.0", "reachable from other containers")
            for (name, value) in environment where name.hasSuffix("_SVC_URL") {
                let target = try XCTUnwrap(ServiceName.allCases.first { $0.urlVariable == name })
                XCTAssertEqual(Self.defaultOf(value.text ?? ""), "http://\(target.rawValue):\(target.defaultPort)")
            }
            for name in environment.keys where name.hasSuffix("_DATABASE_URL") {
                XCTAssertEqual(environment[name]?.text, "${\(name):-}", "SQLite unless the postgres profile's env file names a database")
            }
            for name in environment.keys where name.hasPrefix("FILES_S3_") {
                XCTAssertEqual(environment[name]?.text, "${\(name):-}", "the data folder unless the s3 profile's env file names a bucket")
            }
            let probe = entry["healthcheck"]?["test"]?.text ?? ""
            XCTAssertTrue(probe.contains("http://127.0.0.1:\(service.defaultPort)/health"), "\(service.rawValue) health check: \(probe)")
            if service != .gateway {
                let mounts = entry["volumes"]?.list.compactMap(\.text) ?? []
                let data = mounts.filter { $0.hasSuffix(":/data") }
                XCTAssertEqual(data.count, 1, "\(service.rawValue) keeps its SQLite file on a named volume")
                let volume = String(data.first?.split(separator: ":").first ?? "")
                XCTAssertTrue(volumes.contains(volume), "\(volume) declared")
                for mount in mounts where !mount.hasSuffix(":/data") {
                    XCTAssertTrue(mount.hasSuffix(":ro"), "\(service.rawValue): other mounts are read-only inputs (\(mount))")
                }
                XCTAssertNil(entry["ports"], "only the gateway publishes a port")
            }
        }
        XCTAssertEqual(services["gateway"]?["ports"]?.list.first?.text, "8080:8080")
    }

    /// What compose makes of `${NAME:-default}` when NAME is unset.
    static func defaultOf(_ value: String) -> String {
        guard value.hasPrefix("${"), value.hasSuffix("}"), let dash = value.range(of: ":-") else { return value }
        return String(value[dash.upperBound..<value.index(before: value.endIndex)])
    }

    /// The s3 profile's env file names the profile's server as a bucket the services accept.
    func testTheS3ProfilesEnvironmentFile() throws {
        let lines = try Self.read("Deploy/s3.env").split(separator: "\n").filter { !$0.hasPrefix("#") && $0.contains("=") }
        let settings = Dictionary(
            uniqueKeysWithValues: lines.map { line in
                (String(line.prefix { $0 != "=" }), String(line.drop { $0 != "=" }.dropFirst()))
            })
        XCTAssertEqual(settings["COMPOSE_PROFILES"], "s3")
        let files = try FileStorageConfiguration(reader: ConfigReader(environment: settings))
        guard case .s3(let bucket, _, _, _) = files else { return XCTFail("Deploy/s3.env names no bucket") }
        XCTAssertEqual(bucket.origin, "http://s3:9000")
        let compose = YAMLNode.parse(try Self.read("docker-compose.yml"))
        for service in ["auth-svc", "chat-svc", "market-svc"] {
            let environment = try XCTUnwrap(compose["services"]?[service]?["environment"]).map
            for name in settings.keys where name.hasPrefix("FILES_S3_") { XCTAssertNotNil(environment[name], "\(service) passes \(name) on") }
        }
    }

    /// The postgres profile's env file names settings the services read, and a gateway list of
    /// both chat-svc replicas.
    func testThePostgresProfilesEnvironmentFile() throws {
        let lines = try Self.read("Deploy/postgres.env").split(separator: "\n").filter { !$0.hasPrefix("#") && $0.contains("=") }
        let settings = Dictionary(
            uniqueKeysWithValues: lines.map { line in
                (String(line.prefix { $0 != "=" }), String(line.drop { $0 != "=" }.dropFirst()))
            })
        XCTAssertEqual(settings["COMPOSE_PROFILES"], "postgres")
        XCTAssertEqual(settings["GATEWAY_CHAT_SVC_URL"], "http://chat-svc:8082,http://chat-svc-2:8082")
        for service in ["AUTH", "CHAT", "MARKET", "PAYMENT", "PUSH"] {
            let url = try XCTUnwrap(settings[service + "_DATABASE_URL"])
            XCTAssertNoThrow(try PostgresPool.configuration(url), url)
            XCTAssertTrue(url.contains("@postgres:5432/"), url)
        }
        let initSQL = try Self.read("Deploy/postgres-init.sql")
        for database in ["auth", "chat", "market", "payment", "push"] { XCTAssertTrue(initSQL.contains("CREATE DATABASE \(database);"), database) }
    }

    func testDockerfileBuildsAndShipsEveryExecutable() throws {
        let dockerfile = try Self.read("Deploy/Dockerfile")
        let stages = dockerfile.split(separator: "\n").filter { $0.hasPrefix("FROM ") }
        XCTAssertEqual(stages.count, 2, "multi-stage")
        XCTAssertTrue(stages[0].contains("swift:") && stages[0].contains(" AS build"))
        XCTAssertFalse(stages[1].contains("swift:"), "the runtime image has no toolchain")
        // The image builds with the script the benchmarks build with: what is measured ships.
        XCTAssertTrue(dockerfile.contains("RUN scripts/build-release /staging"))
        let build = try Self.read("scripts/build-release")
        // Each product alone: building every target would link TestSupport, whose XCTest has no
        // static library (`swift build -c release --static-swift-stdlib` fails on it).
        XCTAssertTrue(build.contains("swift build -c release --static-swift-stdlib --product \"$product\""))
        XCTAssertTrue(build.contains("*.resources"), "resource bundles (geo-svc's boundary data) ship beside the executables")
        XCTAssertTrue(dockerfile.contains("libsqlite3-0"))
        let products = try XCTUnwrap(build.split(separator: "\n").first { $0.hasPrefix("products=(") })
            .dropFirst("products=(".count).dropLast().split(separator: " ").map(String.init)
        XCTAssertEqual(Set(products), Set(ServiceName.allCases.map(\.rawValue) + ["glint"]))
    }

    func testReadmeDocumentsEveryVariable() throws {
        let readme = try Self.read("README.md")
        for service in ServiceName.allCases {
            for variable in ServiceCatalog.variables(for: service) {
                XCTAssertTrue(readme.contains("`\(variable.name)`"), "README lacks \(variable.name)")
            }
        }
        for variable in BackupSettings.all { XCTAssertTrue(readme.contains("`\(variable.name)`"), "README lacks \(variable.name)") }
        XCTAssertTrue(readme.contains("swift run glint"))
        XCTAssertTrue(readme.contains("scripts/test"))
    }
}
