import Contracts
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Passwords
import SQLiteStorage
import ServiceClients
import ServiceKit
import Storage
import Synchronization
import TestSupport
import XCTest

@testable import AdminService

/// admin-svc built as its executable builds it, on a temporary folder (or the run's PostgreSQL),
/// with auth-svc faked: two apps, and the bans it was asked for.
struct AdminHarness {
    let app: Application<RouterResponder<GlintRequestContext>>
    let registry: OperatorRegistry
    let stores: AdminStores
    let engine: StoreEngine
    /// What auth-svc was asked to ban and unban: (user, app, request).
    let bans: BanRecorder
    /// How the last backup ended, read from the harness's data folder (`BackupWatch.read`).
    let backups: BackupWatch
    let dataDirectory: String

    static let quotehub = AppInfo(appID: "app-quotehub", name: "QuoteHub", profile: .quotehub, flags: AppFlags(), mount: "quotehub")
    static let glint = AppInfo(appID: "app-glint", name: "GLINT", profile: .lslp, flags: AppFlags())

    static func make(configuration: AdminConfiguration = AdminConfiguration(), logger: Logger = TestEnvironment.logger) async throws -> AdminHarness {
        let directory = try TestEnvironment.temporaryDirectory()
        let common = TestEnvironment.common(.admin, dataDirectory: directory)
        let engine: StoreEngine = try await TestEngine.open(
            sqlite: { StoreEngine.sqlite(try DatabaseFactory.openPool(at: common.databasePath, migrator: AdminMigrations.migrator)) },
            postgres: { pool in
                try await pool.migrate(AdminPostgresMigrations.all)
                return .postgres(pool)
            })
        let bans = BanRecorder()
        var auth = AuthClient.unimplemented
        auth.apps = { [quotehub, glint] }
        auth.ban = { userID, appID, request, _ in
            bans.asked.withLock { $0.append((userID, appID, request)) }
            return BanState(userID: userID, reason: request.reason, until: request.until, operatorID: request.operatorID, createdAt: Date())
        }
        auth.unban = { userID, appID, _ in bans.asked.withLock { $0.append((userID, appID, nil)) } }
        auth.users = { ids, _, _ in
            Dictionary(
                uniqueKeysWithValues: ids.map {
                    (
                        $0,
                        UserInfoFull(
                            userID: $0, nick: "nick-" + $0.suffix(4), profileImage: nil, name: "", introduction: "", description: "", hashTags: [])
                    )
                })
        }
        auth.reportQueue = { appID, query, _ in bans.reports.withLock { $0[appID] ?? [] }.filter { $0.state == query.state } }
        auth.openReports = { appID, _ in
            let open = bans.reports.withLock { $0[appID] ?? [] }.filter { $0.state == "open" }
            return OpenReportsSummary(groups: open.count, oldestAgeSeconds: open.map(\.ageSeconds).max())
        }
        auth.closeReports = { appID, closing, _ in
            bans.closings.withLock { $0.append(closing) }
            return ReportsClosed(closed: bans.reports.withLock { $0[appID] ?? [] }.first { $0.targetId == closing.targetID }?.reporters ?? 0)
        }
        var content = ContentClient.unimplemented
        content.summary = { kind, id, appID, _ in try bans.summary(kind, id, appID) }
        content.hide = { kind, id, appID, request, _ in try bans.setHidden(kind, id, appID, by: request.operatorID) }
        content.restore = { kind, id, appID, _, _ in try bans.setHidden(kind, id, appID, by: nil) }
        content.find = { kind, query, appID, _ in try bans.find(kind, query, appID) }
        content.around = { id, appID, _ in try bans.around(id, appID) }
        content.file = { path, etag, _, _ in bans.file(path, etag: etag) }
        auth.searchUsers = { _, query, _ in
            [OperatorUserSummary(id: query.query, email: "found@example.com", nick: "found", createdAt: "2026-11-26T00:00:00.000Z", banned: false)]
        }
        auth.userDetail = { userID, _, _ in
            OperatorUserDetail(
                user: OperatorUserSummary(
                    id: userID, email: "found@example.com", nick: "found", createdAt: "2026-11-26T00:00:00.000Z", banned: false),
                provider: "email", sessions: [], ban: nil, reportsBy: [], reportsAgainst: [])
        }
        auth.signOutUser = { userID, appID, _ in
            bans.signedOut.withLock { $0.append((userID, appID)) }
            return SignOutAnswer(sessions: 2)
        }
        auth.deleteUser = { userID, appID, _ in bans.deleted.withLock { $0.append((userID, appID)) } }
        var market = MarketClient.unimplemented
        market.coins = { _, _, _ in 70 }
        var push = PushClient.unimplemented
        push.devices = { _, _, _ in
            [OperatorDeviceSummary(platform: "fcm", sessionId: "s1", tokenEnd: "abcdef", updatedAt: "2026-11-26T00:00:00.000Z")]
        }
        push.stats = { hours, _, _ in
            PushStats(
                since: "2026-11-25T10:00:00.000Z", notifications: hours,
                providers: [ProviderDeliveries(provider: "fcm", sent: 9, failed: 1, dead: 0, pending: 2)],
                recentFailures: [
                    DeliveryFailure(at: "2026-11-26T09:00:00.000Z", provider: "fcm", state: "failed", error: "INTERNAL", targetEnd: "abcdef")
                ])
        }
        push.test = { userID, request, _, _ in
            bans.testPushes.withLock { $0.append((userID, request)) }
            return TestPushAnswer(notificationId: "n1", deliveries: 1)
        }
        var payments = PaymentClient.unimplemented
        payments.payments = { _, _, _ in
            [PaymentReceipt(impUID: "imp_1", merchantUID: "m", amount: 100, currency: "KRW", status: "paid", name: "10 Coin")]
        }
        payments.search = { search, appID, _ in
            bans.payments.withLock { $0 }.filter { payment in
                appID == AdminHarness.glint.appID && (search.impUid == nil || search.impUid == payment.impUid)
                    && (search.userId == nil || search.userId == payment.userId)
            }
        }
        payments.refund = { impUID, _, appID, _ in
            try bans.payments.withLock { payments in
                guard appID == AdminHarness.glint.appID, let index = payments.firstIndex(where: { $0.impUid == impUID }) else {
                    throw ServiceError.notFound("no such payment in this app")
                }
                (payments[index].status, payments[index].refundedAt) = ("cancelled", "2026-11-26T12:00:00.000Z")
                return payments[index]
            }
        }
        var activity = ActivityClient.unimplemented
        activity.users = { days, _, _ in
            UserActivity(
                total: 42, newUsers: (0..<days).map { DailyCount(day: "2026-11-\(10 + $0)", count: $0) },
                activeUsers: (0..<days).map { DailyCount(day: "2026-11-\(10 + $0)", count: 2 * $0) })
        }
        activity.content = { days, _, _ in
            ContentActivity(
                posts: (0..<days).map { DailyCount(day: "d\($0)", count: 1) }, stories: (0..<days).map { DailyCount(day: "d\($0)", count: 0) })
        }
        activity.messages = { _, _, _ in throw ServiceError.unavailable(.chat) }
        activity.payments = { _, _ in PaymentActivity(payments: 3, paidAmount: 9000, refunds: 1, refundedAmount: 3000) }
        let hasher = PasswordHasher.bcrypt(cost: 4)
        let backups = BackupWatch(dataDirectory: directory, registry: .init())
        let app = try AdminAssembly.assemble(
            common: common, configuration: configuration, logger: logger, engine: engine,
            dependencies: .init(
                auth: auth, content: content, market: market, payments: payments, push: push, apps: bans.registry.client,
                requests: bans.requestLog.client, activity: activity,
                monitor: ProcessMonitor(http: .shared, configuration: common, logger: TestEnvironment.logger), backups: backups, hasher: hasher)
        ).application()
        let stores = AdminStores(engine)
        return AdminHarness(
            app: app, registry: OperatorRegistry(store: stores.operators, hasher: hasher), stores: stores, engine: engine, bans: bans,
            backups: backups, dataDirectory: directory)
    }

    /// An operator added as `glint admin add` adds one, with what it printed.
    func addOperator(_ email: String, role: OperatorRole, apps: [String] = []) async throws -> Operator {
        let added = try await registry.add(email: email, role: role, apps: apps)
        let secret = try XCTUnwrap(URLComponents(string: added.totpURI)?.queryItems?.first { $0.name == "secret" }?.value)
        return Operator(email: email, password: added.password, totp: try XCTUnwrap(TOTP(base32: secret)), id: added.record.id)
    }

    struct Operator: Sendable {
        var email, password: String
        var totp: TOTP
        var id: String

        /// Steps from now the sign-in helpers' code is taken at: codes are accepted once and in
        /// order, so a test signing in several times walks from -1 to +1.
        var step: Int64 = 0

        /// The code an authenticator shows `steps` steps from now (default: this operator's step).
        func code(steps: Int64? = nil) -> String { totp.code(step: TOTP.step(at: Date()) + (steps ?? step)) }

        func withStep(_ step: Int64) -> Operator {
            var copy = self
            copy.step = step
            return copy
        }
    }

    /// A signed-in operator's cookie and CSRF token.
    struct Session: Sendable {
        var cookie: String
        var csrf: String

        func headers(csrf withCSRF: Bool = true, _ extra: [(String, String)] = []) -> HTTPFields {
            AdminHarness.headers([("Cookie", "glint_admin=\(cookie)")] + (withCSRF ? [("X-CSRF-Token", csrf)] : []) + extra)
        }
    }

    /// Headers of a request the gateway forwards for no app, from a client at `address`.
    static func headers(_ extra: [(String, String)] = [], address: String = "127.0.0.1") -> HTTPFields {
        TestEnvironment.fields(app: nil, extra: [(InternalHeader.clientIP, address)] + extra)
    }

    static func signIn(_ client: some TestClientProtocol, _ op: Operator, code: String? = nil) async throws -> TestResponse {
        try await client.execute(
            uri: "/admin/api/session", method: .post, headers: headers([("Content-Type", "application/json")]),
            body: JSONCoding.encode(OperatorSignIn(email: op.email, password: op.password, code: code ?? op.code())))
    }

    static func session(_ client: some TestClientProtocol, _ op: Operator) async throws -> Session {
        let response = try await signIn(client, op)
        XCTAssertEqual(response.status, .ok, String(buffer: response.body))
        let cookie = try XCTUnwrap(response.headers[.setCookie]).split(separator: ";")[0].split(separator: "=", maxSplits: 1)[1]
        let answer = try JSONCoding.decoder.decode(OperatorSessionAnswer.self, from: response.body)
        return Session(cookie: String(cookie), csrf: answer.csrfToken)
    }
}

/// The other services as admin-svc sees them: what auth-svc was asked to ban (a request) and
/// unban (none), its reports queue and the closings asked of it, and market-svc's content.
final class BanRecorder: Sendable {
    let asked = Mutex<[(userID: String, appID: String, request: BanRequest?)]>([])
    let reports = Mutex<[String: [ReportGroupAnswer]]>([:])
    let closings = Mutex<[ReportClosing]>([])
    let signedOut = Mutex<[(userID: String, appID: String)]>([])
    let deleted = Mutex<[(userID: String, appID: String)]>([])
    /// Content by id: its summary as market-svc would answer it.
    let content = Mutex<[String: ContentSummary]>([:])
    /// The kind whose service does not answer a find.
    let unreachable = Mutex<ContentKind?>(nil)
    /// auth-svc's app registry.
    let registry = FakeAppRegistry()
    /// Test notifications asked of push-svc.
    let testPushes = Mutex<[(userID: String, request: TestPushRequest)]>([])
    /// The gateway's request log and the processes' lines.
    let requestLog = FakeRequestLog()
    /// payment-verify-svc's payments of GLINT.
    let payments = Mutex<[OperatorPayment]>([
        OperatorPayment(
            impUid: "imp_100", merchantUid: "ord_1", kind: "order", userId: "6740369b3a36e82f532ec7bb", amount: 3000, coins: 0,
            productName: "필터", status: "paid", paidAt: "2026-11-26T10:00:00.000Z", refundedAt: nil)
    ])

    func summary(_ kind: ContentKind, _ id: String, _ appID: String) throws -> ContentSummary {
        guard let found = content.withLock({ $0[id] }), found.kind == kind, found.appId == appID else {
            throw ServiceError.notFound("no such content")
        }
        return found
    }

    /// By id in the order asked, or an author's newest (the fake's pieces by `createdAt`).
    func find(_ kind: ContentKind, _ query: ContentFind, _ appID: String) throws -> [ContentSummary] {
        if unreachable.withLock({ $0 }) == kind { throw ServiceError.unavailable(kind == .message ? .chat : .market) }
        let pieces = content.withLock { Array($0.values) }.filter { $0.kind == kind && $0.appId == appID }
        if let ids = query.ids { return ids.compactMap { id in pieces.first { $0.id == id } } }
        return Array(pieces.filter { $0.authorId == query.authorId }.sorted { $0.createdAt > $1.createdAt }.prefix(query.limit ?? 20))
    }

    /// The app's messages as one room, oldest first: three either side of `id`.
    func around(_ id: String, _ appID: String) throws -> [ContentSummary] {
        let room = content.withLock { Array($0.values) }.filter { $0.kind == .message && $0.appId == appID }.sorted { $0.createdAt < $1.createdAt }
        guard let index = room.firstIndex(where: { $0.id == id }) else { throw ServiceError.notFound("no such message") }
        return Array(room[max(0, index - 3)...min(room.count - 1, index + 3)])
    }

    /// Stored files as their services answer them: one tiny PNG for any name, 304 on its ETag.
    static let png = ByteBuffer(bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D])
    let filesAsked = Mutex<[StoredFilePath]>([])

    func file(_ path: StoredFilePath, etag: String?) -> ContentClient.StoredFile {
        filesAsked.withLock { $0.append(path) }
        let tag = "\"png-12\""
        if etag == tag { return ContentClient.StoredFile(status: 304, etag: tag) }
        return ContentClient.StoredFile(status: 200, contentType: "image/png", etag: tag, body: Self.png)
    }

    func setHidden(_ kind: ContentKind, _ id: String, _ appID: String, by operatorID: String?) throws -> ContentSummary {
        var found = try summary(kind, id, appID)
        (found.hidden, found.hiddenBy) = (operatorID != nil, operatorID)
        content.withLock { $0[id] = found }
        return found
    }
}

/// auth-svc's app registry as admin-svc asks it: QuoteHub and GLINT, keys rotated and apps
/// disabled in memory.
final class FakeAppRegistry: Sendable {
    let apps = Mutex<[AppDetail]>(
        [AdminHarness.quotehub, AdminHarness.glint].map { app in
            AppDetail(
                id: app.appID, name: app.name, profile: app.profile, mount: app.mount, flags: app.flags, appleClientIds: [], kakaoAppId: "",
                appleTeamId: nil, appleKeyId: nil, keyHint: "abcd", previousKeyHint: nil, previousKeyExpiresAt: nil, disabled: false,
                createdAt: "2026-11-26T00:00:00.000Z")
        })

    var client: AppRegistryClient {
        var client = AppRegistryClient.unimplemented
        client.details = { _ in self.apps.withLock { $0 } }
        client.create = { registration, _ in
            let key = "key-" + ObjectID.generate()
            let detail = AppDetail(
                id: ObjectID.generate(), name: registration.name, profile: registration.profile, mount: registration.mount,
                flags: registration.settings.flags, appleClientIds: registration.settings.appleClientIds,
                kakaoAppId: registration.settings.kakaoAppId, appleTeamId: nil, appleKeyId: nil, keyHint: String(key.suffix(4)),
                previousKeyHint: nil, previousKeyExpiresAt: nil, disabled: false, createdAt: "2026-11-26T00:00:00.000Z")
            self.apps.withLock { $0.append(detail) }
            return AppKeyIssued(app: detail, key: key)
        }
        client.change = { appID, change, _ in
            try self.update(appID) { detail in
                (detail.flags, detail.appleClientIds, detail.kakaoAppId) = (change.flags, change.appleClientIds, change.kakaoAppId)
            }
        }
        client.rotateKey = { appID, rotation, _ in
            let key = "key-" + ObjectID.generate()
            let detail = try self.update(appID) { detail in
                (detail.previousKeyHint, detail.keyHint) = (detail.keyHint, String(key.suffix(4)))
                detail.previousKeyExpiresAt = GlintDate.string(fromMilliseconds: GlintDate.nowMilliseconds() + Int64(rotation.graceSeconds) * 1000)
            }
            return AppKeyIssued(app: detail, key: key)
        }
        client.disable = { appID, disabling, _ in try self.update(appID) { $0.disabled = disabling.disabled } }
        return client
    }

    private func update(_ appID: String, _ change: (inout AppDetail) -> Void) throws -> AppDetail {
        try apps.withLock { apps in
            guard let index = apps.firstIndex(where: { $0.id == appID }) else { throw ServiceError.notFound("unknown app") }
            change(&apps[index])
            return apps[index]
        }
    }
}

/// The gateway's request log as admin-svc asks it: entries of both apps and one without an app,
/// and auth-svc's lines of the failed one; push-svc unreachable.
final class FakeRequestLog: Sendable {
    static let failed = "req-failed-1"
    let entries: [RequestLogEntry] = [
        RequestLogEntry(
            at: "2026-11-26T10:00:02.000Z", requestId: failed, method: "POST", route: "/v1/users/login", status: 401, latencyMs: 3.5,
            appId: AdminHarness.glint.appID, appName: "GLINT", userId: nil, sampled: false),
        RequestLogEntry(
            at: "2026-11-26T10:00:01.000Z", requestId: "req-quotehub", method: "GET", route: "/quotehub/profile", status: 200, latencyMs: 1,
            appId: AdminHarness.quotehub.appID, appName: "QuoteHub", userId: "6740369b3a36e82f532ec7bb", sampled: true),
        RequestLogEntry(
            at: "2026-11-26T10:00:00.000Z", requestId: "req-nokey", method: "GET", route: "/v1/…", status: 420, latencyMs: 0.2, appId: nil,
            appName: nil, userId: nil, sampled: false),
    ]

    var client: RequestLogClient {
        var client = RequestLogClient.unimplemented
        client.search = { query, _ in
            self.entries.filter { entry in
                (query.requestId == nil || query.requestId == entry.requestId) && (query.status == nil || query.status == entry.status)
                    && (query.appId == nil || query.appId == entry.appId)
            }
        }
        client.lines = { request, _ in
            let lines =
                request == Self.failed
                ? [ServiceLogLine(at: "2026-11-26T10:00:02.001Z", service: "auth-svc", level: "notice", message: "login refused", metadata: [:])]
                : []
            return (lines, ["push-svc"])
        }
        return client
    }
}
