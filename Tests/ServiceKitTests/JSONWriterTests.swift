import Contracts
import Foundation
import NIOCore
import ServiceKit
import XCTest

/// The fast writer against `Codable`: the same bytes as `JSONEncoder` with sorted keys, for
/// randomized posts, filters and filter pages, chats, rooms, chat push events, token pairs and quotehub story pages (strings with every escape, numbers of every form, optional keys present and not).
final class JSONWriterTests: XCTestCase {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    func testPostsFeedsAndListsWriteTheBytesCodableWrites() throws {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<300 {
            let posts = (0..<Int.random(in: 0...4, using: &generator)).map { _ in Self.post(&generator) }
            try Self.assertSameBytes(CursorPage(data: posts, nextCursor: Self.text(&generator)), round)
            try Self.assertSameBytes(DataList(data: posts), round)
            if let post = posts.first {
                try Self.assertSameBytes(post, round)
                try Self.assertSameBytes(post.files, round)
                try Self.assertSameBytes(TokenPair(accessToken: post.title, refreshToken: post.content), round)
            }
        }
    }

    func testFiltersAndChatsWriteTheBytesCodableWrites() throws {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<300 {
            let filters = (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                FilterSummary(
                    filterID: Self.text(&generator), category: Self.text(&generator), title: Self.text(&generator),
                    description: Self.text(&generator),
                    files: [Self.text(&generator)], creator: Self.user(&generator), isLiked: Bool.random(using: &generator),
                    likeCount: Int.random(in: 0...1_000_000, using: &generator), buyerCount: Int.random(in: 0...1_000_000, using: &generator),
                    createdAt: Self.text(&generator), updatedAt: Self.text(&generator))
            }
            try Self.assertSameBytes(CursorPage(data: filters, nextCursor: Self.text(&generator)), round)
            try Self.assertSameBytes(DataList(data: filters), round)
            let chats = (0..<Int.random(in: 0...3, using: &generator)).map { _ in Self.chat(&generator) }
            try Self.assertSameBytes(DataList(data: chats), round)
            let rooms = (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                ChatRoomAnswer(
                    roomID: Self.text(&generator), createdAt: Self.text(&generator), updatedAt: Self.text(&generator),
                    participants: [Self.user(&generator), Self.user(&generator)],
                    lastChat: Bool.random(using: &generator) ? Self.chat(&generator) : nil)
            }
            try Self.assertSameBytes(DataList(data: rooms), round)
            func texts() -> [String] { (0..<Int.random(in: 0...3, using: &generator)).map { _ in Self.text(&generator) } }
            try Self.assertSameBytes(
                ChatMessageEvent(
                    appID: Self.text(&generator), roomID: Self.text(&generator), chatID: Self.text(&generator), senderID: Self.text(&generator),
                    senderNick: Self.text(&generator), content: Self.text(&generator), files: texts(), recipients: texts(), present: texts(),
                    createdAt: Self.text(&generator)
                ), round)
        }
    }

    func testFilterPagesWriteTheBytesCodableWrites() throws {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<300 {
            func maybe<T>(_ make: () -> T) -> T? { Bool.random(using: &generator) ? make() : nil }
            var values = FilterValues()
            for key in [\FilterValues.brightness, \.exposure, \.contrast, \.saturation, \.sharpness, \.blur, \.vignette, \.noiseReduction]
                + [\FilterValues.highlights, \.shadows, \.temperature, \.blackPoint]
            {
                values[keyPath: key] = maybe { Self.number(&generator) }
            }
            var metadata = PhotoMetadata(camera: maybe { Self.text(&generator) }, iso: maybe { Int.random(in: 0...100_000, using: &generator) })
            metadata.lensInfo = maybe { Self.text(&generator) }
            metadata.focalLength = maybe { Self.number(&generator) }
            metadata.aperture = maybe { Self.number(&generator) }
            metadata.shutterSpeed = maybe { Self.text(&generator) }
            metadata.pixelWidth = maybe { Int.random(in: 0...100_000, using: &generator) }
            metadata.pixelHeight = maybe { Int.random(in: 0...100_000, using: &generator) }
            metadata.fileSize = maybe { Int.random(in: 0...Int(Int32.max), using: &generator) }
            metadata.format = maybe { Self.text(&generator) }
            metadata.dateTimeOriginal = maybe { Self.text(&generator) }
            metadata.latitude = maybe { Self.number(&generator) }
            metadata.longitude = maybe { Self.number(&generator) }
            let summary = FilterSummary(
                filterID: Self.text(&generator), category: Self.text(&generator), title: Self.text(&generator),
                description: Self.text(&generator), files: [Self.text(&generator)], creator: Self.user(&generator),
                isLiked: Bool.random(using: &generator), likeCount: Int.random(in: 0...1_000_000, using: &generator),
                buyerCount: Int.random(in: 0...1_000_000, using: &generator), createdAt: Self.text(&generator), updatedAt: Self.text(&generator))
            try Self.assertSameBytes(
                FilterDetail(
                    summary: summary, price: Int.random(in: 0...1_000_000, using: &generator), photoMetadata: maybe { metadata },
                    filterValues: values, isDownloaded: Bool.random(using: &generator),
                    comments: (0..<Int.random(in: 0...3, using: &generator)).map { _ in Self.comment(&generator, replies: true) }),
                round)
        }
    }

    func testQuotehubStoryPagesWriteTheBytesCodableWrites() throws {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<300 {
            func texts() -> [String] { (0..<Int.random(in: 0...3, using: &generator)).map { _ in Self.text(&generator) } }
            func reader(blocked: Bool) -> QuotehubUser {
                QuotehubUser(
                    id: Self.text(&generator), nickname: Self.text(&generator), profileImage: Self.text(&generator),
                    statusMessage: Bool.random(using: &generator) ? Self.text(&generator) : nil,
                    blockedUsers: blocked && Bool.random(using: &generator) ? [reader(blocked: false)] : nil)
            }
            let stories = (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                QuotehubStory(
                    id: Self.text(&generator), userId: reader(blocked: true),
                    bookId: QuotehubBook(
                        id: Self.text(&generator), title: Self.text(&generator), author: texts(), translator: texts(),
                        introduction: Self.text(&generator), publisher: Self.text(&generator), publicationDate: Self.text(&generator),
                        bookImageURL: Self.text(&generator), bookLink: Self.text(&generator), isbn: texts()),
                    quotes: (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                        StoryQuote(
                            quote: Self.text(&generator), page: Bool.random(using: &generator) ? Int.random(in: -5...5000, using: &generator) : nil)
                    },
                    content: Bool.random(using: &generator) ? Self.text(&generator) : nil, storyImageURLs: texts(),
                    isPublic: Bool.random(using: &generator), keywords: texts(), folderIds: texts(), createdAt: Self.text(&generator),
                    updatedAt: Self.text(&generator))
            }
            let pagination = Pagination(
                currentPage: Int.random(in: 1...500, using: &generator), pageSize: Int.random(in: 0...50, using: &generator),
                totalItems: Int.random(in: 0...100_000, using: &generator))
            try Self.assertSameBytes(
                PageEnvelope(success: Bool.random(using: &generator), message: Self.text(&generator), data: stories, pagination: pagination), round)
        }
    }

    static func chat(_ generator: inout some RandomNumberGenerator) -> ChatAnswer {
        ChatAnswer(
            chatID: text(&generator), roomID: text(&generator), content: text(&generator), createdAt: text(&generator), updatedAt: text(&generator),
            sender: user(&generator), files: (0..<Int.random(in: 0...2, using: &generator)).map { _ in text(&generator) })
    }

    func testProfilesAndIDListsWriteTheBytesCodableWrites() throws {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<300 {
            let texts = { (generator: inout SystemRandomNumberGenerator) in
                (0..<Int.random(in: 0...3, using: &generator)).map { _ in Self.text(&generator) }
            }
            let users = { (generator: inout SystemRandomNumberGenerator) in
                (0..<Int.random(in: 0...3, using: &generator)).map { _ in Self.user(&generator) }
            }
            let profile = ProfileAnswer(
                userID: Self.text(&generator), email: Self.text(&generator), nick: Self.text(&generator),
                profileImage: Bool.random(using: &generator) ? Self.text(&generator) : nil, phoneNum: Self.text(&generator),
                gender: Self.text(&generator), birthDay: Self.text(&generator), info: texts(&generator), followers: users(&generator),
                following: users(&generator), posts: texts(&generator), name: Self.text(&generator), introduction: Self.text(&generator),
                description: Self.text(&generator), hashTags: texts(&generator))
            try Self.assertSameBytes(profile, round)
            try Self.assertSameBytes(UserIDList(userIDs: texts(&generator)), round)
        }
    }

    func testEncodeUsesTheWriterForWritableTypes() throws {
        var generator = SystemRandomNumberGenerator()
        let page = CursorPage(data: [Self.post(&generator)], nextCursor: "0")
        XCTAssertEqual(String(buffer: JSONCoding.encode(page)), String(decoding: try Self.encoder.encode(page), as: UTF8.self))
    }

    static func assertSameBytes<T: Encodable & JSONWritable>(_ value: T, _ round: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        var writer = JSONWriter()
        value.write(to: &writer)
        let expected = String(decoding: try encoder.encode(value), as: UTF8.self)
        XCTAssertEqual(String(buffer: writer.buffer), expected, "round \(round)", file: file, line: line)
    }

    static let alphabet: [Character] = Array("abcXYZ 0129_-/:.#\"\\'한글😀\u{2028}\u{7f}é") + (0..<0x20).map { Character(Unicode.Scalar(UInt8($0))) }

    static func text(_ generator: inout some RandomNumberGenerator) -> String {
        String((0..<Int.random(in: 0...12, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
    }

    static func number(_ generator: inout some RandomNumberGenerator) -> Double {
        switch Int.random(in: 0...6, using: &generator) {
        case 0: Double(Int.random(in: -1000...1000, using: &generator))
        case 1: Double.random(in: -180...180, using: &generator)
        case 2: Double.random(in: 1e15...1e22, using: &generator)
        case 3: Double.random(in: 1e-9...1e-4, using: &generator)
        case 4: -0.0
        case 5: (Double.random(in: 0...100, using: &generator) * 1000).rounded() / 1000
        default: Double(bitPattern: UInt64.random(in: 0...0x7FEF_FFFF_FFFF_FFFF, using: &generator))
        }
    }

    static func user(_ generator: inout some RandomNumberGenerator) -> UserInfo {
        UserInfo(userID: text(&generator), nick: text(&generator), profileImage: Bool.random(using: &generator) ? text(&generator) : nil)
    }

    static func comment(_ generator: inout some RandomNumberGenerator, replies: Bool) -> CommentAnswer {
        CommentAnswer(
            commentID: text(&generator), content: text(&generator), createdAt: text(&generator), creator: user(&generator),
            replies: replies ? (0..<Int.random(in: 0...2, using: &generator)).map { _ in comment(&generator, replies: false) } : nil)
    }

    static func post(_ generator: inout some RandomNumberGenerator) -> PostAnswer {
        func texts() -> [String] { (0..<Int.random(in: 0...3, using: &generator)).map { _ in text(&generator) } }
        return PostAnswer(
            postID: text(&generator), productID: Bool.random(using: &generator) ? text(&generator) : nil, category: text(&generator),
            title: text(&generator),
            price: Int.random(in: Int.min...Int.max, using: &generator), content: text(&generator), contents: (0..<5).map { _ in text(&generator) },
            createdAt: text(&generator), updatedAt: text(&generator), creator: user(&generator), files: texts(), likes: texts(), likes2: texts(),
            buyers: texts(), hashTags: texts(),
            comments: (0..<Int.random(in: 0...2, using: &generator)).map { _ in comment(&generator, replies: Bool.random()) },
            geolocation: Geolocation(longitude: number(&generator), latitude: number(&generator)),
            distance: Bool.random(using: &generator) ? number(&generator) : nil, isPublic: Bool.random(using: &generator)
        )
    }
}
