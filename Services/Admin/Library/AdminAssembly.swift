import Contracts
import Foundation
import Logging
import Passwords
import Prometheus
import ServiceClients
import ServiceKit
import ServiceLifecycle
import Storage

/// The operators' side (issue 35): operators and their sessions, the audit log, and the admin
/// API (`/admin/api`), which acts on the other services through their internal endpoints only.
package enum AdminAssembly {
    /// The SQLite migrations this build knows, in order (a snapshot with others is from a newer build).
    package static var sqliteMigrations: [String] { AdminMigrations.migrator.migrations }
    /// The PostgreSQL migrations this build knows, in order.
    package static var postgresMigrations: [String] { AdminPostgresMigrations.all.map(\.name) }

    package static func assemble(_ common: CommonConfiguration, _ reader: ConfigReader, _ logger: Logger) async throws -> ServiceAssembly {
        let configuration = try AdminConfiguration(reader: reader)
        let engine = try await AdminStores.open(databaseURL: configuration.databaseURL, sqlitePath: common.databasePath, logger: logger)
        let http = HTTPClientService.make()
        let client = InternalClient(http: http.client, configuration: common)
        let monitor = ProcessMonitor(http: http.client, configuration: common, logger: logger)
        let registry = PrometheusCollectorRegistry()
        // The bucket's own client, as the file stores have: a bucket that is gone is shown so at
        // once, where the retrying client would wait out the request's whole 30 s.
        let bucketHTTP = HTTPClientService.make(retryConnecting: false)
        let backups = BackupWatch(
            source: configuration.backupBucket.map { .bucket($0.client(http: bucketHTTP.client)) } ?? .folder(common.dataDirectory),
            registry: registry)
        // Nothing admin-svc keeps of auth-svc's answers is cached across requests: no change signal to hear.
        let dependencies = Dependencies(
            auth: .live(client, changes: LocalChangeCounter()), content: .live(client), market: .live(client), payments: .live(client),
            push: .live(client), apps: .live(client), requests: .live(client), activity: .live(client),
            monitor: monitor, backups: backups,
            hasher: .bcrypt(cost: configuration.bcryptCost))
        return try assemble(
            common: common, configuration: configuration, logger: logger, engine: engine, dependencies: dependencies, registry: registry,
            services: [http, bucketHTTP, monitor, backups])
    }

    /// What admin-svc asks other services; tests pass fakes.
    struct Dependencies: Sendable {
        /// auth-svc: apps, bans, the reports queue.
        var auth: AuthClient
        /// market-svc's and chat-svc's content, to show, hide and restore.
        var content: ContentClient
        /// market-svc's wallets (a user's coins on their page).
        var market: MarketClient
        /// payment-verify-svc: a user's payments on their page.
        var payments: PaymentClient
        /// push-svc: a user's devices on their page.
        var push: PushClient
        /// auth-svc's app registry: settings, registration, key rotation, disabling.
        var apps: AppRegistryClient
        /// The gateway's request log and every process's lines of a request.
        var requests: RequestLogClient
        /// The services' activity per day, for the overview.
        var activity: ActivityClient
        /// Every process's health and request rates (run as a service by the executable).
        var monitor: ProcessMonitor
        /// How the last backup on this machine ended (run as a service by the executable).
        var backups: BackupWatch
        var hasher: PasswordHasher
    }

    static func assemble(
        common: CommonConfiguration, configuration: AdminConfiguration, logger: Logger, engine: StoreEngine, dependencies: Dependencies,
        registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(), services: [any Service] = []
    ) throws -> ServiceAssembly {
        let renderer = try ConsoleRenderer.bundled()
        let stores = AdminStores(engine)
        let signIn = SignInService(
            operators: stores.operators, sessions: stores.sessions, hasher: dependencies.hasher, idle: configuration.sessionIdle)
        let gate = OperatorGate(signIn: signIn, allowed: configuration.allowedNetworks)
        let access = OperatorAccess(auth: dependencies.auth)
        let audit = AuditLog(store: stores.audit)
        let contents = ContentDesk(content: dependencies.content, audit: audit)
        let moderation = ModerationActions(auth: dependencies.auth, audit: audit)
        let sessions = SessionDesk(signIn: signIn, gate: gate, audit: audit)
        let desks = Desks(
            reports: ReportDesk(auth: dependencies.auth, content: contents, moderation: moderation, audit: audit, logger: logger),
            users: UserDesk(
                auth: dependencies.auth, market: dependencies.market, payments: dependencies.payments, push: dependencies.push,
                moderation: moderation, audit: audit),
            content: contents,
            operators: OperatorDesk(registry: OperatorRegistry(store: stores.operators, hasher: dependencies.hasher), signIn: signIn, audit: audit),
            audit: AuditDesk(access: access, audit: audit),
            apps: AppDesk(access: access, registry: dependencies.apps, audit: audit),
            payments: PaymentDesk(payments: dependencies.payments, audit: audit),
            requests: RequestLogDesk(access: access, log: dependencies.requests),
            push: PushDesk(push: dependencies.push, audit: audit))
        let overview = OverviewDesk(
            access: access, activity: dependencies.activity, reports: desks.reports, push: dependencies.push, monitor: dependencies.monitor,
            backups: dependencies.backups)
        let backups = dependencies.backups
        return ServiceApplication.assemble(
            configuration: common, logger: logger, registry: registry, healthCheck: engine.health, backupHealth: { backups.current },
            services: engine.services + services
        ) { group in
            SessionRoutes(gate: gate, desk: sessions).register(on: group)
            OperatorRoutes(gate: gate, desk: desks.operators).register(on: group)
            AppRoutes(gate: gate, access: access, desk: desks.apps).register(on: group)
            UserRoutes(gate: gate, access: access, desk: desks.users).register(on: group)
            ContentRoutes(gate: gate, access: access, desk: desks.content).register(on: group)
            ReportRoutes(gate: gate, access: access, desk: desks.reports).register(on: group)
            AuditRoutes(gate: gate, desk: desks.audit).register(on: group)
            PaymentRoutes(gate: gate, access: access, desk: desks.payments).register(on: group)
            RequestLogRoutes(gate: gate, desk: desks.requests).register(on: group)
            PushRoutes(gate: gate, access: access, desk: desks.push).register(on: group)
            OverviewRoutes(gate: gate, desk: overview).register(on: group)
            let console = Console(renderer: renderer, gate: gate, access: access)
            SessionPages(console: console, desk: sessions).register(on: group)
            HomePage(console: console, reports: desks.reports, overview: overview).register(on: group)
            ReportPages(console: console, desk: desks.reports).register(on: group)
            UserPages(console: console, desk: desks.users, content: desks.content).register(on: group)
            ContentPages(console: console, desk: desks.content).register(on: group)
            OperatorPages(console: console, desk: desks.operators).register(on: group)
            AuditPages(console: console, desk: desks.audit).register(on: group)
            AppPages(console: console, desk: desks.apps).register(on: group)
            PaymentPages(console: console, desk: desks.payments).register(on: group)
            RequestPages(console: console, desk: desks.requests).register(on: group)
            PushPages(console: console, desk: desks.push).register(on: group)
        }
    }

    /// `glint admin add`: the registry on the service's own store (the file in `dataDirectory`,
    /// or the PostgreSQL database `databaseURL` names).
    package static func addOperator(
        dataDirectory: String, databaseURL: String? = nil, email: String, role: OperatorRole, apps: [String], bcryptCost: Int = 10
    ) async throws -> (password: String, totpURI: String) {
        let path = dataDirectory + "/" + ServiceName.admin.rawValue + ".sqlite"
        let engine = try await AdminStores.open(databaseURL: databaseURL, sqlitePath: path, logger: Logger(label: "admin-svc operators"))
        let registry = OperatorRegistry(store: AdminStores(engine).operators, hasher: .bcrypt(cost: bcryptCost))
        let added = try await registry.add(email: email, role: role, apps: apps)
        return (added.password, added.totpURI)
    }
}
