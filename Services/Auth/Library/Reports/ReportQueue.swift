import Contracts
import Foundation
import ServiceKit

/// The reports queue (issue 35): an app's reports grouped by target, oldest group first, each
/// with its age, reporters and reasons; closing a group records the action taken. Grouping is
/// decided here, once for both engines.
struct ReportQueue: Sendable {
    let store: any ReportQueueStore
    var now: @Sendable () -> Int64 = { GlintDate.nowMilliseconds() }

    static let targetTypes: Set<String> = ["user", "post", "comment", "bookstory"]
    static let actions: Set<String> = ["dismissed", "hidden", "banned"]
    /// Reports read per request: the groups are cut from these.
    static let window = 5_000

    func groups(appID: String, _ query: ReportQueueQuery) async throws -> [ReportGroupAnswer] {
        guard ["open", "closed"].contains(query.state) else { throw ServiceError.badRequest("state must be open or closed") }
        if let type = query.targetType, !Self.targetTypes.contains(type) { throw ServiceError.badRequest("unknown target type") }
        guard (1...200).contains(query.limit) else { throw ServiceError.badRequest("limit must be 1 to 200") }
        let reports = try await store.reports(appID: appID, open: query.state == "open", targetType: query.targetType, limit: Self.window)
        return Self.grouped(reports, state: query.state, now: now(), limit: query.limit)
    }

    /// The overview's count: open targets and the oldest open report's age, without the queue.
    func openSummary(appID: String) async throws -> OpenReportsSummary {
        let (targets, oldest) = try await store.openSummary(appID: appID)
        return OpenReportsSummary(groups: targets, oldestAgeSeconds: oldest.map { Int(max(now() - $0, 0) / 1000) })
    }

    func close(appID: String, _ closing: ReportClosing) async throws -> ReportsClosed {
        guard Self.targetTypes.contains(closing.targetType) else { throw ServiceError.badRequest("unknown target type") }
        guard Self.actions.contains(closing.action) else { throw ServiceError.badRequest("unknown action") }
        guard (1...64).contains(closing.targetID.utf8.count) else { throw ServiceError.badRequest("invalid target id") }
        let closed = try await store.close(
            appID: appID, targetType: closing.targetType, targetID: closing.targetID, action: closing.action, operatorID: closing.operatorID,
            at: now())
        return ReportsClosed(closed: closed)
    }

    /// Reports (oldest first) as groups by target, in the order their oldest report came; only
    /// the first `limit` groups are made into answers.
    static func grouped(_ reports: [QueuedReport], state: String, now: Int64, limit: Int) -> [ReportGroupAnswer] {
        var order: [String] = []
        var byTarget: [String: [QueuedReport]] = [:]
        for report in reports {
            let key = report.targetType + "/" + report.targetID
            if byTarget[key] == nil { order.append(key) }
            byTarget[key, default: []].append(report)
        }
        return order.prefix(limit).compactMap { key in
            guard let group = byTarget[key], let first = group.first else { return nil }
            var reasons: [String] = []
            for report in group where !report.reason.isEmpty && !reasons.contains(report.reason) { reasons.append(report.reason) }
            return ReportGroupAnswer(
                targetType: first.targetType, targetId: first.targetID, state: state, oldestAt: GlintDate.string(fromMilliseconds: first.createdAt),
                ageSeconds: Int(max(0, now - first.createdAt) / 1000), reporters: Set(group.map(\.reporterID)).count, reasons: reasons,
                reports: group.map {
                    QueuedReportAnswer(
                        id: $0.id, reporterId: $0.reporterID, reason: $0.reason, createdAt: GlintDate.string(fromMilliseconds: $0.createdAt))
                }, action: group.last?.action)
        }
    }
}
