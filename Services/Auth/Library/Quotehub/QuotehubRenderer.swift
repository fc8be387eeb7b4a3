import Contracts
import FileStorage
import ServiceKit

/// Users in API.md §9's shapes, image URLs absolute under the app's mount.
struct QuotehubRenderer: Sendable {
    let urls: PublicFileURL

    init(base: String?) {
        urls = PublicFileURL(base: base)
    }

    func user(_ user: UserRecord) -> QuotehubUser {
        urls.user(user.infoFull)
    }
}
