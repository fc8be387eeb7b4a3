import Contracts
import ServiceClients
import ServiceKit

/// Posts as last rendered, posts' pages and feed pages as last sent, so that a post's page and
/// the feeds answer from memory what they would otherwise read, render and encode again: kept
/// while no commit has changed posts, likes or comments since they were read
/// (`ChangeBoundCache`, whoever wrote). An answer is kept only when it hid no comment from its
/// reader, and who its users are is applied afresh at each use (`PostRenderer.withCurrentUsers`;
/// a kept page is sent only while they are as it shows them), so nicknames stay as current as
/// without the cache.
struct PostAnswerCache: Sendable {
    private struct Entry {
        var appID: String
        var answer: PostAnswer
    }

    /// A feed page as its query found it, and as it was last sent: its JSON, and the users it
    /// showed (post and comment authors) as they were then. The same query at the same
    /// generation shows the same posts; only who those users are now can differ.
    struct Page: Sendable {
        var postIDs: [String]
        var nextCursor: String
        var json: EncodedJSON<CursorPage<PostAnswer>>
        var shown: ShownUsers

        init(_ page: CursorPage<PostAnswer>, json: EncodedJSON<CursorPage<PostAnswer>>) {
            (postIDs, nextCursor, self.json, shown) = (page.data.map(\.postID), page.nextCursor, json, ShownUsers(page.data))
        }

        /// Memory the page holds, about.
        fileprivate var estimatedBytes: Int { 256 + json.bytes.readableBytes + 64 * (postIDs.count + shown.people.count) }
    }

    /// A post's page as it was last sent (its JSON) and the users it showed then: while they are
    /// unchanged and the post is, it is sent again as it is (the encoding was a twentieth of
    /// market-svc's work per `GET /v1/posts/{id}`). Kept only for answers that hid nothing.
    struct Item: Sendable {
        var appID: String
        var json: EncodedJSON<PostAnswer>
        var shown: ShownUsers

        fileprivate var estimatedBytes: Int { 128 + json.bytes.readableBytes + 64 * shown.people.count }
    }

    /// The users some answers show (post and comment authors), once each, as they were shown.
    struct ShownUsers: Sendable {
        var people: [UserInfo]

        init(_ answers: [PostAnswer]) {
            var seen = Set<String>()
            people = answers.flatMap(\.people).filter { seen.insert($0.userID).inserted }
        }

        /// Whether they are still as shown.
        func same(as current: [String: UserInfoFull]) -> Bool {
            people.allSatisfy { current.info($0.userID) == $0 }
        }
    }

    private let answers: ChangeBoundCache<String, Entry>
    private let items: ChangeBoundCache<String, Item>
    private let pages: ChangeBoundCache<PostPageQuery, Page>

    /// Up to about `maxBytes` in all: half for answers, a quarter for posts' pages, a quarter
    /// for feed pages.
    init(changes: any CommitCounter, maxBytes: Int) {
        answers = ChangeBoundCache(changes: changes, maxCost: maxBytes / 2) { $0.answer.estimatedBytes }
        items = ChangeBoundCache(changes: changes, maxCost: maxBytes / 4) { $0.estimatedBytes }
        pages = ChangeBoundCache(changes: changes, maxCost: maxBytes / 4) { $0.estimatedBytes }
    }

    /// To be read before the file: answers rendered from what is read next are stored under it.
    var generation: UInt64 { answers.generation }

    /// The kept answers of those of `ids` in `appID` that hid nothing from a reader hiding
    /// `hidden`, if nothing changed since `generation` was read.
    func answers(_ ids: some Sequence<String>, appID: String, hiding hidden: Set<String>, generation: UInt64) -> [String: PostAnswer] {
        answers.values(for: ids, generation: generation) { entry in
            entry.appID == appID && (hidden.isEmpty || entry.answer.commentCreators.isDisjoint(with: hidden)) ? entry.answer : nil
        }
    }

    /// Keeps `answers` (rendered without hiding any comment) read after `generation` was read.
    func store(_ answers: [PostAnswer], appID: String, generation: UInt64) {
        self.answers.store(answers.map { ($0.postID, Entry(appID: appID, answer: $0)) }, generation: generation)
    }

    /// The post's page as last sent in `appID`, if nothing changed since `generation` was read.
    func item(_ id: String, appID: String, generation: UInt64) -> Item? {
        items.values(for: [id], generation: generation) { $0.appID == appID ? $0 : nil }[id]
    }

    /// Keeps a post's page (its answer hid nothing) rendered after `generation` was read.
    func store(_ item: Item, for id: String, generation: UInt64) {
        items.store([(id, item)], generation: generation)
    }

    /// The page `query` found, if nothing changed since `generation` was read (the query holds
    /// its reader and what they hide, so a page is never shown to another).
    func page(_ query: PostPageQuery, generation: UInt64) -> Page? {
        pages.value(for: query, generation: generation)
    }

    func store(_ page: Page, for query: PostPageQuery, generation: UInt64) {
        pages.store([(query, page)], generation: generation)
    }
}

extension PostAnswer {
    /// What a post without comments takes in memory, about: its fixed fields and a short text.
    fileprivate static let typicalBytes = 1024

    /// Memory an answer holds, about: its text, and a fixed share per field and comment.
    fileprivate var estimatedBytes: Int {
        var bytes = Self.typicalBytes / 2
        for text in [postID, category, title, content, content1, content2, content3, content4, content5, createdAt, updatedAt] {
            bytes += text.utf8.count
        }
        for list in [files, likes, likes2, hashTags] { bytes += list.reduce(0) { $0 + 16 + $1.utf8.count } }
        for comment in comments {
            bytes += 128 + comment.content.utf8.count
            for reply in comment.replies ?? [] { bytes += 128 + reply.content.utf8.count }
        }
        return bytes
    }

    /// Every user the answer shows, its author first, in the order it shows them.
    fileprivate var people: [UserInfo] {
        [creator] + comments.flatMap { comment in [comment.creator] + (comment.replies ?? []).map(\.creator) }
    }

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
