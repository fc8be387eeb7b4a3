import Contracts
import FileStorage
import ServiceKit

/// What auth-svc's outbox tells market-svc of a revoked account (API.md §9): its stories, themes
/// and comments go, and the images they used.
struct AccountContentRoutes: Sendable {
    let stories: any StoryStore
    let storyImages: FileStore
    let themeImages: FileStore

    func register(internal group: ServiceApplication.Group) {
        group.serve(InternalEndpoints.Market.accountRevoked) { _, event, context in
            let images = try await stories.removeContent(of: event.userID, appID: event.appID)
            for path in images {
                await storyImages.remove(publicPath: path, appID: event.appID)
                await themeImages.remove(publicPath: path, appID: event.appID)
            }
            context.logger.info("revoked account's content removed", metadata: ["user_id": "\(event.userID)", "images": "\(images.count)"])
            return EmptyAnswer()
        }
    }
}
