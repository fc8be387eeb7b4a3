import Contracts
import Hummingbird
import ServiceKit

/// API.md §9's `/auth/…` routes of quotehub apps (mount-relative: the gateway strips the mount),
/// every answer in the envelope.
struct QuotehubAuthRoutes: Sendable {
    let users: any UserStore
    let nicknames: NicknameGenerator

    func register(public group: ServiceApplication.Group) {
        group.get("/auth/generate-nickname") { _, context -> Envelope<GeneratedNickname> in
            let appID = try context.requireAppID(profile: .quotehub)
            return Envelope(message: "닉네임이 생성되었습니다.", data: GeneratedNickname(nickname: try await nicknames.generate(appID: appID)))
        }
        group.get("/auth/check-nickname") { request, context -> Envelope<NicknameAvailability> in
            let appID = try context.requireAppID(profile: .quotehub)
            let nickname = try NicknameGenerator.check(request.uri.queryParameters["nickname"].map(String.init))
            let available = try await !users.isNickTaken(nickname, appID: appID)
            return Envelope(message: available ? "사용 가능한 닉네임입니다." : "이미 사용 중인 닉네임입니다.", data: NicknameAvailability(available: available))
        }
    }
}
