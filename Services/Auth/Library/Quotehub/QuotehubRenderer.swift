import Contracts

/// Users in API.md §9's shapes. Image URLs are absolute under the app's mount (`base`, from the
/// gateway): the client loads them directly, with no key or token.
struct QuotehubRenderer: Sendable {
    /// `https://host/quotehub`; nil leaves the URL relative to the mount.
    let base: String?

    static let storedPrefix = "/data/"
    static let servedPrefix = "/files/"

    func user(_ user: UserRecord) -> QuotehubUser {
        QuotehubUser(id: user.id, nickname: user.nick, profileImage: user.profileImage.map(url) ?? "",
                     statusMessage: user.introduction.isEmpty ? nil : user.introduction)
    }

    /// `/data/profiles/x.jpg` (as stored) → `https://host/quotehub/files/profiles/x.jpg`.
    func url(_ stored: String) -> String {
        let path = stored.hasPrefix(Self.storedPrefix) ? Self.servedPrefix + stored.dropFirst(Self.storedPrefix.count) : stored
        return (base ?? "") + path
    }
}
