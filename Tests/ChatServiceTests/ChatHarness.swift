import Contracts
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SQLiteStorage
import ServiceClients
import ServiceKit
import Storage
import Synchronization
import TestSupport
import XCTest

@testable import ChatService

/// chat-svc with auth-svc, market-svc and push-svc faked: known users (members of workspaces
/// too), app flags, a coin wallet, and the push events the outbox delivers.
struct ChatHarness {
    static let appID = "app-1", openApp = "app-open"
    static let alice = "6740369b3a36e82f532ec721", bob = "6740369b3a36e82f532ec722", carol = "6740369b3a36e82f532ec723"
    static let chatKeys: Set<String> = ["chat_id", "room_id", "content", "createdAt", "updatedAt", "sender", "files"]

    let app: Application<RouterResponder<GlintRequestContext>>
    let keys: TestKeys
    /// push-svc's side of the outbox.
    let push: EventRecorder<ChatMessageEvent>
    /// market-svc's wallet (every user starts with 100 coins).
    let wallet: FakeWallet
    /// auth-svc's block graph.
    let blocks: BlockGraph
    let engine: StoreEngine

    static func email(_ user: String) -> String { "user-" + user.suffix(4) + "@glint.test" }
    static func nick(_ user: String) -> String { "nick-" + user.suffix(4) }
    static func member(_ user: String) -> SlpUser { SlpUser(userID: user, email: email(user), nickname: nick(user), profileImage: nil) }

    /// `pushClient` / `coinsClient` / `membersClient` (its members and lookup by email) replace the fakes (failing ones, say);
    /// `engine`, the run's engine (another replica's, say).
    static func make(
        protocolTest: Bool = false, pushClient: EventClient<[ChatMessageEvent]>? = nil, coinsClient: MarketClient? = nil,
        membersClient: AuthClient? = nil, workspaceCost: Int = 50, engine: StoreEngine? = nil
    ) async throws -> ChatHarness {
        let keys = await TestKeys.make()
        let push = EventRecorder<ChatMessageEvent>()
        let directory = try TestEnvironment.temporaryDirectory()
        let common = TestEnvironment.common(.chat, dataDirectory: directory)
        let engine = if let engine { engine } else { try await openEngine(common) }
        let known: Set<String> = [alice, bob, carol]
        let blocks = BlockGraph()
        var auth = AuthClient.unimplemented
        auth.users = { ids, _, _ in
            Dictionary(
                uniqueKeysWithValues: ids.filter(known.contains).map {
                    ($0, UserInfoFull(userID: $0, nick: nick($0), profileImage: nil, name: "", introduction: "", description: "", hashTags: []))
                })
        }
        auth.blocked = { user, _, _ in blocks.blocked(by: user) }
        auth.members = { ids, _, _ in Dictionary(uniqueKeysWithValues: ids.filter(known.contains).map { ($0, member($0)) }) }
        auth.memberByEmail = { address, _, _ in known.first { email($0) == address }.map(member) }
        if let membersClient { (auth.members, auth.memberByEmail) = (membersClient.members, membersClient.memberByEmail) }
        auth.appFlags = { appID in
            appID == openApp ? AppFlags(socketAuthOptional: true) : appID == ChatHarness.appID ? AppFlags() : nil
        }
        let wallet = FakeWallet(balance: 100)
        var configuration = ChatConfiguration()
        configuration.protocolTest = protocolTest
        configuration.workspaceCost = workspaceCost
        let app = try ChatAssembly.assemble(
            common: common, configuration: configuration, logger: TestEnvironment.logger, engine: engine,
            dependencies: .init(
                auth: auth, jwks: JWKSClient { keys.jwks }, push: pushClient ?? push.batchClient, market: coinsClient ?? wallet.client)
        ).application()
        return ChatHarness(app: app, keys: keys, push: push, wallet: wallet, blocks: blocks, engine: engine)
    }

    /// The run's engine (`TestEngine`), migrated.
    static func openEngine(_ common: CommonConfiguration) async throws -> StoreEngine {
        try await TestEngine.open(
            sqlite: { StoreEngine.sqlite(try DatabaseFactory.openPool(at: common.databasePath, migrator: ChatMigrations.migrator)) },
            postgres: { pool in
                try await pool.migrate(ChatPostgresMigrations.all); return StoreEngine.postgres(pool)
            }
        )
    }

    func token(_ user: String, app: String = ChatHarness.appID) async throws -> String {
        try await keys.token(user: user, app: app)
    }

    func headers(_ user: String, app: String = ChatHarness.appID, json: Bool = true) async throws -> HTTPFields {
        var extra = [("Authorization", try await token(user, app: app))]
        if json { extra.append(("Content-Type", "application/json")) }
        return TestEnvironment.fields(app: app, extra: extra)
    }

    /// Opens (or finds) the room of two users and answers its id.
    func room(_ client: some TestClientProtocol, _ user: String, with opponent: String, app: String = ChatHarness.appID) async throws -> String {
        let response = try await client.execute(
            uri: "/v1/chats", method: .post, headers: try await headers(user, app: app),
            body: JSONCoding.encode(OpenRoomRequest(opponentID: opponent))
        )
        XCTAssertEqual(response.status, .ok, String(buffer: response.body))
        return try JSON.string(try JSON.object(response.body), "room_id")
    }

    /// Sends a message and answers the Chat object.
    func send(_ client: some TestClientProtocol, _ user: String, room: String, _ body: SendChatRequest) async throws -> [String: Any] {
        let response = try await client.execute(
            uri: "/v1/chats/\(room)", method: .post, headers: try await headers(user), body: JSONCoding.encode(body))
        XCTAssertEqual(response.status, .ok, String(buffer: response.body))
        return try JSON.object(response.body)
    }
}
