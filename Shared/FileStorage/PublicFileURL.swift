import Contracts
import ServiceKit

/// A stored file's path (`/data/<area>/<name>`, as `FileStore` answers it) as the absolute URL a
/// mounted app's client loads directly (API.md §9): `<base>/files/<area>/<name>`, where `base` is
/// the mount's public address the gateway passes on (`x-internal-public-base`).
package struct PublicFileURL: Sendable {
    /// `https://host/quotehub`; nil leaves URLs relative to the mount.
    package let base: String?

    static let storedPrefix = "/data/"
    static let servedPrefix = "/files/"

    package init(base: String?) {
        self.base = base
    }

    package func url(_ stored: String) -> String {
        let path = stored.hasPrefix(Self.storedPrefix) ? Self.servedPrefix + stored.dropFirst(Self.storedPrefix.count) : stored
        return (base ?? "") + path
    }

    /// Another service's user (looked up from auth-svc) in §9's shape.
    package func user(_ info: UserInfoFull) -> QuotehubUser {
        QuotehubUser(
            id: info.userID, nickname: info.nick, profileImage: info.profileImage.map(url) ?? "",
            statusMessage: info.introduction.isEmpty ? nil : info.introduction)
    }
}
