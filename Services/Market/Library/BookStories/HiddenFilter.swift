import Contracts
import ServiceKit

/// What one reader does not see (API.md §9): users they blocked or reported, stories they
/// reported, and what operators hid (stories, comments). Kept as JSON arrays too, the form the
/// SQL reads them in.
struct HiddenFilter: Sendable, Equatable {
    let users: Set<String>
    let stories: Set<String>
    /// Comments operators hid (their replies go with them).
    let comments: Set<String>
    /// The same as JSON arrays, made once: every list query binds them.
    let usersJSON: String
    let storiesJSON: String
    let commentsJSON: String

    static let nothing = HiddenFilter(users: [], stories: [])

    init(users: Set<String>, stories: Set<String>, comments: Set<String> = []) {
        (self.users, self.stories, self.comments) = (users, stories, comments)
        (usersJSON, storiesJSON, commentsJSON) = (
            JSONText.encode(users.sorted()), JSONText.encode(stories.sorted()), JSONText.encode(comments.sorted())
        )
    }

    init(_ content: HiddenContent) {
        self.init(users: Set(content.userIDs), stories: Set(content.storyIDs))
    }

    func hides(user: String) -> Bool { users.contains(user) }
    func hides(story: StoryRecord) -> Bool { users.contains(story.userID) || stories.contains(story.id) }
}
