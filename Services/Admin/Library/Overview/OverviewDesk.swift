import Contracts
import Hummingbird
import ServiceClients
import ServiceKit

/// The overview, shared by the admin API and the console: one app's (or, for owners, every
/// app's) users, content and messages per day, open reports and the oldest's age, and — for
/// owners and admins — today's payments, push, every process's health and request rates, and how
/// the last backup ended.
/// Each part comes from the service that keeps it; one that cannot be asked is left out and named.
struct OverviewDesk: Sendable {
    let access: OperatorAccess
    let activity: ActivityClient
    let reports: ReportDesk
    let push: PushClient
    let monitor: ProcessMonitor
    let backups: BackupWatch

    /// `?app=&days=` (days: 7 or 30 and anything from 1 to 90).
    static func days(_ text: Substring?) throws -> Int {
        guard let text, !text.isEmpty else { return 7 }
        guard let days = Int(text), (1...90).contains(days) else { throw ServiceError.badRequest("days must be 1 to 90") }
        return days
    }

    /// `pending`: the open reports' summary per app the caller has just read (the console's overview page
    /// lists them per app), not asked again.
    func overview(
        app appID: String?, days: Int, by op: SignedInOperator, pending: [String: OpenReportsSummary] = [:]
    ) async throws
        -> Overview
    {
        let covered = try await access.apps(for: op.record)
        var app: AppInfo?
        if let appID { app = try await access.app(appID, for: op.record) }
        guard app != nil || op.record.role == .owner else { throw ServiceError.badRequest("app is required (every app is for owners)") }
        let manages = op.record.role != .moderator
        var unavailable: [String] = []
        func part<Value: Sendable>(_ name: String, _ fetch: () async throws -> Value) async -> Value? {
            do { return try await fetch() } catch {
                unavailable.append(name)
                return nil
            }
        }
        let id = app?.appID, request = op.requestID
        let usersPart = await part("users") { try await activity.users(days, id, request) }
        let contentPart = await part("content") { try await activity.content(days, id, request) }
        let messagesPart = await part("messages") { try await activity.messages(days, id, request) }
        let open = await part("reports") { () async throws -> [OpenReportsSummary] in
            var summaries: [OpenReportsSummary] = []
            for each in app.map({ [$0] }) ?? covered {
                if let known = pending[each.appID] { summaries.append(known) } else { summaries.append(try await reports.pending(each, by: op)) }
            }
            return summaries
        }
        var payments: PaymentActivity?
        var pushStats: PushStats?
        var processes: [ProcessHealth] = []
        var backup: BackupHealth?
        if manages {
            backup = backups.current
            payments = await part("payments") { try await activity.payments(id, request) }
            if let app { pushStats = await part("push") { try await push.stats(24, app.appID, request) } }
            processes = monitor.processes()
        }
        return Overview(
            appId: id, days: days, users: usersPart, content: contentPart, messages: messagesPart, paymentsToday: payments,
            openReports: open?.map(\.groups).reduce(0, +), oldestReportAgeSeconds: open?.compactMap(\.oldestAgeSeconds).max(), push: pushStats,
            processes: processes, backup: backup,
            unavailable: unavailable)
    }
}
