import Contracts
import Hummingbird
import ServiceKit

/// API.md §9's `/block-report/…`: blocks (the one block graph every app's block routes share)
/// and reports of users and book stories; every answer in the envelope.
struct QuotehubBlockReportRoutes: Sendable {
    let users: any UserStore
    let profiles: ProfileService

    static let reportTypes = ["user": "User", "bookstory": "BookStory"]

    func register(protected: ServiceApplication.Group) {
        for (path, on) in [("/block-report/block", true), ("/block-report/unblock", false)] {
            protected.post(RouterPath(path)) { request, context -> Envelope<NoPayload> in
                let caller = try context.requireUser(profile: .quotehub)
                let target = try await request.decode(as: BlockTarget.self, context: context).targetUserId
                if on { guard try await users.user(id: target, appID: caller.appID) != nil else { throw ServiceError.notFound("사용자를 찾을 수 없습니다.") } }
                _ = try await profiles.block(caller, target: target, on: on)
                return Envelope(message: on ? "차단되었습니다." : "차단이 해제되었습니다.", data: nil)
            }
        }
        protected.post("/block-report/report") { request, context -> Envelope<NoPayload> in
            let caller = try context.requireUser(profile: .quotehub)
            let body = try await request.decode(as: ReportTarget.self, context: context)
            let reason = try FieldRule.text(body.reason ?? "", "reason", 0...1000, trimming: .whitespacesAndNewlines) ?? ""
            do {
                _ = try await profiles.report(caller, targetType: try Self.type(body.type), targetID: body.targetId, reason: reason)
            } catch let error as StoreError {
                // A second report of the same target is a bad request here (API.md §9).
                if case .conflict = error { throw ServiceError.badRequest("이미 신고했습니다.") }
                throw error
            }
            return Envelope(message: "신고되었습니다.", data: nil)
        }
        protected.post("/block-report/cancel-report") { request, context -> Envelope<NoPayload> in
            let caller = try context.requireUser(profile: .quotehub)
            let body = try await request.decode(as: ReportTarget.self, context: context)
            try await profiles.cancelReport(caller, targetType: try Self.type(body.type), targetID: body.targetId)
            return Envelope(message: "신고가 취소되었습니다.", data: nil)
        }
        protected.get("/block-report/blocked-users") { _, context -> Envelope<[QuotehubUser]> in
            let caller = try context.requireUser(profile: .quotehub)
            let blocked = try await profiles.blockedUsers(of: caller.userID)
            return Envelope(
                message: "차단 목록", data: try await users.users(ids: blocked, appID: caller.appID).map(QuotehubRenderer(base: context.publicBase).user))
        }
        protected.get("/block-report/reports") { _, context -> Envelope<[QuotehubReport]> in
            let caller = try context.requireUser(profile: .quotehub)
            guard let me = try await users.user(id: caller.userID, appID: caller.appID) else {
                throw ServiceError(.forbidden, "user no longer exists")
            }
            let reports = try await profiles.reports(of: caller).filter { Self.reportTypes[$0.targetType] != nil }
            return Envelope(
                message: "신고 목록",
                data: reports.map { report in
                    let date = GlintDate.string(fromMilliseconds: report.createdAt)
                    return QuotehubReport(
                        id: report.id, targetId: report.targetID, reporterId: QuotehubRenderer(base: context.publicBase).user(me),
                        type: report.targetType,
                        reason: report.reason, onModel: Self.reportTypes[report.targetType] ?? "", createdAt: date, updatedAt: date)
                })
        }
    }

    private static func type(_ type: String) throws -> String {
        guard reportTypes[type] != nil else { throw ServiceError.badRequest("type must be user or bookstory") }
        return type
    }
}
