import FileStorage
import Moderation
import ServiceKit

/// §9's parts wired together: books, stories, themes, comments, their images, and what a
/// revoked account leaves to remove.
struct BookStoryAssembly: Sendable {
    let books: BookRoutes
    let stories: StoryRoutes
    let themes: ThemeRoutes
    let comments: StoryCommentRoutes
    let accounts: AccountContentRoutes

    init(files: any FileBackend, stores: MarketStores, dependencies: MarketAssembly.Dependencies, moderation: ContentModeration) {
        let readers = ReaderResolver(hidden: dependencies.auth, moderation: moderation)
        let (bookStore, storyStore) = (stores.books, stores.stories)
        let renderer = BookStoryRenderer(users: dependencies.auth, books: bookStore)
        let storyImages = FileStore(backend: files, service: .market, area: "bookstories")
        let themeImages = FileStore(backend: files, service: .market, area: "folders")
        let storyService = StoryService(stories: storyStore, renderer: renderer, images: storyImages)
        books = BookRoutes(books: BookService(store: bookStore, kakao: dependencies.kakao), readers: readers)
        stories = StoryRoutes(stories: storyService, images: storyImages, readers: readers)
        themes = ThemeRoutes(
            themes: ThemeService(themes: stores.themes, stories: storyService, renderer: renderer, images: themeImages), images: themeImages,
            readers: readers
        )
        comments = StoryCommentRoutes(
            comments: StoryCommentService(comments: stores.comments, stories: storyService, renderer: renderer), readers: readers
        )
        accounts = AccountContentRoutes(stories: storyStore, storyImages: storyImages, themeImages: themeImages)
    }

    /// Quotehub routes sit on `guest`: a token is optional there and checked when sent.
    func register(internal group: ServiceApplication.Group, guest: ServiceApplication.Group) {
        accounts.register(internal: group)
        books.register(on: guest)
        stories.register(on: guest)
        themes.register(on: guest)
        comments.register(on: guest)
    }
}
