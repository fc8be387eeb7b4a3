import Contracts

/// Users in API.md §9's shapes.
enum QuotehubRenderer {
    static func user(_ user: UserRecord) -> QuotehubUser {
        QuotehubUser(id: user.id, nickname: user.nick, profileImage: user.profileImage ?? "", statusMessage: user.introduction.isEmpty ? nil : user.introduction)
    }
}
