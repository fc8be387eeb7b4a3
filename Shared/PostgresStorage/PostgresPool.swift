import Foundation
import Logging
import NIOSSL
import PostgresNIO
import ServiceKit
import ServiceLifecycle

/// A service's store on PostgreSQL (`<SVC>_DATABASE_URL`): one connection pool, its migrations
/// applied at start, closed with the service group. The pool runs from the moment it is made, so
/// a service can migrate and read before its group starts.
package final class PostgresPool: Service, Sendable {
    package let client: PostgresClient
    package let logger: Logger
    private let runner: Task<Void, Never>

    /// `postgres://user[:password]@host[:port]/database[?sslmode=…]` (`disable`, `prefer` — the
    /// default, as in libpq —, `require`, `verify-ca`, `verify-full`).
    package init(url: String, logger: Logger, maximumConnections: Int = 20) throws {
        var configuration = try Self.configuration(url)
        configuration.options.maximumConnections = maximumConnections
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        self.logger = logger
        // Started before `init` returns (`run()` marks the client running before it first
        // suspends): a query made at once, as a service's migrations are, would otherwise lease
        // before the task began, which postgres-nio logs as a warning at every start.
        runner = Task.immediate { await client.run() }
    }

    package static func configuration(_ url: String) throws -> PostgresClient.Configuration {
        guard let parts = URLComponents(string: url), ["postgres", "postgresql"].contains(parts.scheme ?? ""),
            let host = parts.host, !host.isEmpty, let user = parts.user, !user.isEmpty
        else { throw PostgresURLError(problem: "expected postgres://user[:password]@host[:port]/database") }
        let database = String(parts.path.drop { $0 == "/" })
        guard !database.isEmpty else { throw PostgresURLError(problem: "names no database") }
        // As libpq reads sslmode: prefer and require encrypt without checking the certificate,
        // verify-ca checks it against the system's roots, verify-full the host name too.
        var unverified = TLSConfiguration.makeClientConfiguration()
        unverified.certificateVerification = .none
        var caOnly = TLSConfiguration.makeClientConfiguration()
        caOnly.certificateVerification = .noHostnameVerification
        let tls: PostgresClient.Configuration.TLS
        switch parts.queryItems?.first(where: { $0.name == "sslmode" })?.value ?? "prefer" {
        case "disable": tls = .disable
        case "prefer", "allow": tls = .prefer(unverified)
        case "require": tls = .require(unverified)
        case "verify-ca": tls = .require(caOnly)
        case "verify-full": tls = .require(.makeClientConfiguration())
        case let other: throw PostgresURLError(problem: "sslmode '\(other)' is not one of disable, prefer, require, verify-ca, verify-full")
        }
        return PostgresClient.Configuration(
            host: host, port: parts.port ?? 5432, username: user.removingPercentEncoding ?? user,
            password: parts.password?.removingPercentEncoding, database: database, tls: tls
        )
    }

    /// Applies the migrations not applied yet, in order, in one transaction; replicas starting
    /// together take turns (an advisory lock), so each migration runs once.
    package func migrate(_ migrations: [PostgresMigration]) async throws {
        try await transaction { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.migrationLock))", logger: logger)
            try await connection.query(
                "CREATE TABLE IF NOT EXISTS schema_migration (name text PRIMARY KEY, applied_at bigint NOT NULL)", logger: logger)
            var applied: Set<String> = []
            for try await name in try await connection.query("SELECT name FROM schema_migration", logger: logger).decode(String.self) {
                applied.insert(name)
            }
            for migration in migrations where !applied.contains(migration.name) {
                for statement in migration.statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                let now = Int64(Date().timeIntervalSince1970 * 1000)
                try await connection.query("INSERT INTO schema_migration (name, applied_at) VALUES (\(migration.name), \(now))", logger: logger)
                logger.info("migration applied", metadata: ["migration": .string(migration.name)])
            }
        }
    }

    /// A connection for reads (each statement sees what is committed when it starts).
    package func read<Result: Sendable>(_ body: (PostgresConnection) async throws -> Result) async throws -> Result {
        try await client.withConnection { connection in try await body(connection) }
    }

    /// One business operation: committed when `body` returns, rolled back when it throws, with
    /// `body`'s own error (a `StoreError` stays one) rather than PostgresNIO's wrapper.
    @discardableResult
    package func transaction<Result: Sendable>(_ body: (PostgresConnection) async throws -> Result) async throws -> Result {
        do {
            return try await client.withTransaction(logger: logger) { connection in try await body(connection) }
        } catch let error as PostgresTransactionError {
            if let rollback = error.rollbackError {
                logger.warning("rollback failed", metadata: ["error": .string(String(describing: rollback))])
            }
            throw error.closureError ?? error.commitError ?? error.beginError ?? error
        }
    }

    /// For `/health`: the server answers.
    package func check() async throws {
        try await client.query("SELECT 1", logger: logger)
    }

    package func run() async throws {
        try? await gracefulShutdown()
        close()
    }

    package func close() {
        runner.cancel()
    }

    private static let migrationLock: Int64 = 0x676C_696E_746D_6967  // "glintmig"
}

/// A migration of a PostgreSQL store: named once and never edited, like GRDB's.
package struct PostgresMigration: Sendable {
    package var name: String
    package var statements: [String]

    package init(_ name: String, _ statements: [String]) {
        self.name = name
        self.statements = statements
    }
}

package struct PostgresURLError: Error, CustomStringConvertible {
    package var problem: String
    package var description: String { "database URL: \(problem)" }
}
