import Contracts
import ServiceKit
import Synchronization

/// Posts as last rendered, so that a post's page and the feeds answer from memory what they
/// would otherwise read and render again. An answer is kept only while no commit has changed
/// posts, likes or comments since it was read (`TableChangeCounter`, whoever wrote), and only
/// when it hid no comment from its reader; who its users are is applied afresh at each use
/// (`PostRenderer.withCurrentUsers`), so nicknames stay as current as without the cache.
///
/// One generation at a time: a change empties it, which keeps the rule simple enough to be
/// obviously right (a like on one post drops all; the next reads render them again).
final class PostAnswerCache: Sendable {
    private struct Entry {
        var appID: String
        var answer: PostAnswer
    }

    private struct State {
        var generation: UInt64 = 0
        var entries: [String: Entry] = [:]
    }

    private let changes: TableChangeCounter
    private let state = Mutex(State())
    private let maxEntries: Int

    init(changes: TableChangeCounter, maxEntries: Int) {
        self.changes = changes
        self.maxEntries = maxEntries
    }

    /// To be read before the file: answers rendered from what is read next are stored under it.
    var generation: UInt64 { changes.count }

    /// The kept answers of those of `ids` in `appID` that hid nothing from a reader hiding
    /// `hidden`, if nothing changed since `generation` was read.
    func answers(_ ids: some Sequence<String>, appID: String, hiding hidden: Set<String>, generation: UInt64) -> [String: PostAnswer] {
        guard changes.count == generation else { return [:] }
        return state.withLock { state in
            guard state.generation == generation else { return [:] }
            var found: [String: PostAnswer] = [:]
            for id in ids {
                guard let entry = state.entries[id], entry.appID == appID else { continue }
                if !hidden.isEmpty, !entry.answer.commentCreators.isDisjoint(with: hidden) { continue }
                found[id] = entry.answer
            }
            return found
        }
    }

    /// Keeps `answers` (rendered without hiding any comment) read after `generation` was read.
    func store(_ answers: [PostAnswer], appID: String, generation: UInt64) {
        guard !answers.isEmpty, answers.count <= maxEntries, changes.count == generation else { return }
        state.withLock { state in
            if generation != state.generation { state = State(generation: generation) }
            // Bounded: when full it starts over, as re-rendering a post costs one read.
            if state.entries.count + answers.count > maxEntries { state.entries.removeAll(keepingCapacity: true) }
            for answer in answers { state.entries[answer.postID] = Entry(appID: appID, answer: answer) }
        }
    }
}

extension PostAnswer {
    /// Whose comments and replies the answer shows.
    var commentCreators: Set<String> {
        var creators = Set<String>()
        for comment in comments {
            creators.insert(comment.creator.userID)
            for reply in comment.replies ?? [] { creators.insert(reply.creator.userID) }
        }
        return creators
    }
}
