import Contracts
import FileStorage
import Foundation
import Hummingbird
import ServiceKit

/// API.md §9's reader profiles: nickname change, profile edit (with an image, served under the
/// mount at `/files/profiles/…`), own and others' profiles, user search; every answer in the
/// envelope.
struct QuotehubProfileRoutes: Sendable {
    let users: any UserStore
    let profiles: ProfileService
    let images: FileStore

    static let statusMessageLength = 0...100

    func register(public group: ServiceApplication.Group, protected: ServiceApplication.Group) {
        images.registerServing(on: group, prefix: "/files")
        protected.put("/auth/change-nickname") { request, context -> Envelope<QuotehubUser> in
            let caller = try context.requireUser(profile: .quotehub)
            var update = ProfileUpdate()
            update.nick = try await nickname(try await request.decode(as: GeneratedNickname.self, context: context).nickname, for: caller)
            try await profiles.update(caller, update, image: nil)
            return Envelope(message: "닉네임이 변경되었습니다.", data: try await user(caller.userID, appID: caller.appID, context))
        }
        protected.put("/profile") { request, context -> Envelope<QuotehubUser> in
            let caller = try context.requireUser(profile: .quotehub)
            var edit: ProfileEdit
            var image: MultipartForm.Part?
            if MultipartForm.isMultipart(request) {
                let form = try await MultipartForm.read(request, limits: .uploads)
                edit = ProfileEdit(nickname: form.field("nickname"), statusMessage: form.field("statusMessage"))
                image = form.files(named: "profileImage").first
            } else {
                edit = try await request.decode(as: ProfileEdit.self, context: context)
            }
            var update = ProfileUpdate()
            if let nickname = edit.nickname, !nickname.isEmpty { update.nick = try await self.nickname(nickname, for: caller) }
            update.introduction = try FieldRule.text(edit.statusMessage, "statusMessage", Self.statusMessageLength, trimming: .whitespacesAndNewlines)
            try await profiles.update(caller, update, image: image)
            return Envelope(message: "프로필이 수정되었습니다.", data: try await user(caller.userID, appID: caller.appID, context))
        }
        protected.get("/profile") { _, context -> Envelope<QuotehubUser> in
            let caller = try context.requireUser(profile: .quotehub)
            var me = try await user(caller.userID, appID: caller.appID, context)
            let blocked = try await profiles.blockedUsers(of: caller.userID)
            me.blockedUsers = try await users.users(ids: blocked, appID: caller.appID).map(QuotehubRenderer(base: context.publicBase).user)
            return Envelope(message: "프로필 조회 성공", data: me)
        }
        group.get("/profile/{user_id}") { _, context -> Envelope<QuotehubUser> in
            let appID = try context.requireAppID(profile: .quotehub)
            return Envelope(message: "프로필 조회 성공", data: try await user(try context.parameters.require("user_id"), appID: appID, context))
        }
        protected.get("/user/search/{nickname}") { _, context -> Envelope<[QuotehubUser]> in
            let caller = try context.requireUser(profile: .quotehub)
            // Path parameters arrive percent-encoded (a Korean nickname always is).
            let raw = try context.parameters.require("nickname")
            let query = try FieldRule.text(raw.removingPercentEncoding ?? raw, "nickname", 1...30, trimming: .whitespaces)!
            let blocked = Set(try await profiles.blockedUsers(of: caller.userID))
            let found = try await users.search(nick: query, appID: caller.appID, limit: 50).filter {
                $0.id != caller.userID && !blocked.contains($0.id)
            }
            return Envelope(message: "검색 성공", data: found.map(QuotehubRenderer(base: context.publicBase).user))
        }
    }

    private func user(_ id: String, appID: String, _ context: GlintRequestContext) async throws -> QuotehubUser {
        guard ObjectID.isValid(id), let user = try await users.user(id: id, appID: appID) else { throw ServiceError.notFound("사용자를 찾을 수 없습니다.") }
        return QuotehubRenderer(base: context.publicBase).user(user)
    }

    /// A nickname the caller may take: 2–12 characters, unique per app in any case (keeping
    /// one's own is no change).
    private func nickname(_ raw: String?, for caller: AuthenticatedUser) async throws -> String {
        let nickname = try NicknameGenerator.check(raw)
        guard let me = try await users.user(id: caller.userID, appID: caller.appID) else { throw ServiceError(.forbidden, "user no longer exists") }
        if me.nick.lowercased() != nickname.lowercased(), try await users.isNickTaken(nickname, appID: caller.appID) {
            throw ServiceError(.conflict, "이미 사용 중인 닉네임입니다.")
        }
        return nickname
    }
}
