import Foundation
import Contracts
import Hummingbird
import ServiceKit

/// API.md §9's reader profiles: nickname change, own and others' profiles, user search; every
/// answer in the envelope.
struct QuotehubProfileRoutes: Sendable {
    let users: any UserStore
    let profiles: ProfileService

    func register(public group: ServiceApplication.Group, protected: ServiceApplication.Group) {
        protected.put("/auth/change-nickname") { request, context -> Envelope<QuotehubUser> in
            let caller = try context.requireUser(profile: .quotehub)
            let nickname = try NicknameGenerator.check(try await request.decode(as: GeneratedNickname.self, context: context).nickname)
            guard let me = try await users.user(id: caller.userID, appID: caller.appID) else { throw ServiceError(.forbidden, "user no longer exists") }
            // Unique per app, in any case; keeping one's own nickname is no change.
            if me.nick.lowercased() != nickname.lowercased(), try await users.isNickTaken(nickname, appID: caller.appID) {
                throw ServiceError(.conflict, "이미 사용 중인 닉네임입니다.")
            }
            var update = ProfileUpdate()
            update.nick = nickname
            try await profiles.update(caller, update, image: nil)
            return Envelope(message: "닉네임이 변경되었습니다.", data: try await user(caller.userID, appID: caller.appID))
        }
        protected.get("/profile") { _, context -> Envelope<QuotehubUser> in
            let caller = try context.requireUser(profile: .quotehub)
            var me = try await user(caller.userID, appID: caller.appID)
            let blocked = try await profiles.blockedUsers(of: caller.userID)
            me.blockedUsers = try await users.users(ids: blocked, appID: caller.appID).map(QuotehubRenderer.user)
            return Envelope(message: "프로필 조회 성공", data: me)
        }
        group.get("/profile/{user_id}") { _, context -> Envelope<QuotehubUser> in
            let appID = try context.requireAppID(profile: .quotehub)
            return Envelope(message: "프로필 조회 성공", data: try await user(try context.parameters.require("user_id"), appID: appID))
        }
        protected.get("/user/search/{nickname}") { _, context -> Envelope<[QuotehubUser]> in
            let caller = try context.requireUser(profile: .quotehub)
            // Path parameters arrive percent-encoded (a Korean nickname always is).
            let raw = try context.parameters.require("nickname")
            let query = try FieldRule.text(raw.removingPercentEncoding ?? raw, "nickname", 1...30, trimming: .whitespaces)!
            let blocked = Set(try await profiles.blockedUsers(of: caller.userID))
            let found = try await users.search(nick: query, appID: caller.appID, limit: 50).filter { $0.id != caller.userID && !blocked.contains($0.id) }
            return Envelope(message: "검색 성공", data: found.map(QuotehubRenderer.user))
        }
    }

    private func user(_ id: String, appID: String) async throws -> QuotehubUser {
        guard ObjectID.isValid(id), let user = try await users.user(id: id, appID: appID) else { throw ServiceError.notFound("사용자를 찾을 수 없습니다.") }
        return QuotehubRenderer.user(user)
    }
}
