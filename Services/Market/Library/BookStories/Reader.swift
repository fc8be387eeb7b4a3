import Contracts
import FileStorage
import Moderation
import ServiceClients
import ServiceKit

/// Who reads a §9 route: the app, the signed-in reader (nil for a guest), what they hid, and
/// where the app's files are served (absolute URLs under its mount).
struct Reader: Sendable {
    var appID: String
    var userID: String?
    var hidden: HiddenFilter
    /// Stories operators hid: hidden from everyone, their authors too (in `hidden` as well).
    var takenDown: HiddenFilter
    /// Themes operators hid: gone for everyone, their authors too.
    var hiddenThemes: Set<String>
    var urls: PublicFileURL
    var requestID: String

    /// The signed-in reader, or 401 for a guest.
    func requireUser() throws -> String {
        guard let userID else { throw ServiceError(.tokenInvalid, "access token required") }
        return userID
    }

    func isOwner(of userID: String) -> Bool { self.userID == userID }
}

/// Builds the reader of a request: a signed-in one's hidden users and stories come from
/// auth-svc (briefly cached), and every reader's hide the stories operators took down.
struct ReaderResolver: Sendable {
    let hidden: AuthClient
    let moderation: ContentModeration

    func reader(_ context: GlintRequestContext) async throws -> Reader {
        let appID = try context.requireAppID(profile: .quotehub)
        let userID = context.user?.userID
        let own = if let userID { try await hidden.hiddenContent(userID, appID, context.requestID) } else { HiddenContent(userIDs: [], storyIDs: []) }
        let takenDown = try await moderation.hiddenIDs(.story, appID: appID)
        let comments = try await moderation.hiddenIDs(.comment, appID: appID)
        return Reader(
            appID: appID, userID: userID,
            hidden: HiddenFilter(users: Set(own.userIDs), stories: Set(own.storyIDs).union(takenDown), comments: comments),
            takenDown: HiddenFilter(users: [], stories: takenDown), hiddenThemes: try await moderation.hiddenIDs(.theme, appID: appID),
            urls: PublicFileURL(base: context.publicBase), requestID: context.requestID)
    }

    /// The same for a route that needs a signed-in reader (401 otherwise).
    func signedIn(_ context: GlintRequestContext) async throws -> Reader {
        _ = try context.requireUser(profile: .quotehub)
        return try await reader(context)
    }
}
