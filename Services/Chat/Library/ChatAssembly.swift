import Contracts
import FileStorage
import HTTPTypes
import Hummingbird
import Logging
import Moderation
import Outbox
import ServiceClients
import ServiceKit
import ServiceLifecycle
import SocketIO
import Storage

/// Rooms, messages, files and search over REST, and the Socket.IO server (API.md §3); the
/// workspaces of `slp` apps with their channels and DMs, which are rooms too (§8).
package enum ChatAssembly {
    /// The SQLite migrations this build knows, in order (a snapshot with others is from a newer build).
    package static var sqliteMigrations: [String] { ChatMigrations.migrator.migrations }
    /// The PostgreSQL migrations this build knows, in order.
    package static var postgresMigrations: [String] { ChatPostgresMigrations.all.map(\.name) }

    /// Where chat-svc's records name uploads (`glint files migrate`).
    package static let fileReferences = [
        FileReference(
            area: "chats", from: "chat JOIN room ON room.id = chat.room_id", appColumn: "room.app_id", column: "chat.files", isList: true),
        FileReference(area: "workspaces", from: "workspace", column: "cover_image", isList: false),
        FileReference(
            area: "workspaces", from: "channel JOIN workspace ON workspace.id = channel.workspace_id", appColumn: "workspace.app_id",
            column: "channel.cover_image", isList: false),
    ]

    /// An app's records as `glint app export` takes them, in the order they load. A message's
    /// `seq` (and a participant's order) are numbered anew by the store that loads them, in the
    /// order they were; a room's last message is found again. Left out: the outbox, and what
    /// only live sockets use (frames, presence).
    package static let exportedTables = [
        ExportedTable("workspace"),
        ExportedTable("workspace_member"),
        ExportedTable(
            "room", leftOut: ["last_chat_seq"],
            derive: ["UPDATE room SET last_chat_seq = (SELECT max(seq) FROM chat WHERE chat.room_id = room.id) WHERE app_id = {app}"]),
        ExportedTable("participant", leftOut: ["joined"], postgresOrder: "joined"),
        ExportedTable("channel", scope: "room_id IN (SELECT id FROM room WHERE app_id = {app})"),
        ExportedTable("chat", scope: "room_id IN (SELECT id FROM room WHERE app_id = {app})", leftOut: ["seq"], postgresOrder: "seq"),
        ExportedTable("hidden_content"),
    ]

    /// chat-svc's store as its settings name it, migrated (commands that read it).
    package static func openStore(databaseURL: String?, sqlitePath: String, logger: Logger) async throws -> StoreEngine {
        try await ChatStores.open(databaseURL: databaseURL, sqlitePath: sqlitePath, logger: logger)
    }

    package static func assemble(_ common: CommonConfiguration, _ reader: ConfigReader, _ logger: Logger) async throws -> ServiceAssembly {
        let configuration = try ChatConfiguration(reader: reader, host: common.host)
        let engine = try await ChatStores.open(databaseURL: configuration.databaseURL, sqlitePath: common.databasePath, logger: logger)
        let http = HTTPClientService.make()
        let client = InternalClient(http: http.client, configuration: common)
        let usersChanged = engine.changeSignal(channel: ChatPostgresMigrations.usersChanged)
        let dependencies = Dependencies(
            auth: .live(client, changes: usersChanged.counter), jwks: .live(client: client), revocations: .live(client: client),
            push: EventClient { events in _ = try await client.call(InternalEndpoints.Push.chatMessages, body: events) },
            market: .live(client), usersChanged: usersChanged
        )
        return try assemble(
            common: common, configuration: configuration, logger: logger, engine: engine, dependencies: dependencies, services: [http])
    }

    /// What chat-svc asks other services; tests pass fakes.
    struct Dependencies: Sendable {
        /// auth-svc: users, whom a caller blocked, workspace members, apps' flags.
        var auth: AuthClient
        var jwks: JWKSClient
        /// auth-svc's bans, long-polled: a banned user's sockets are closed.
        var revocations: RevocationFeed = .none
        /// push-svc, told of messages.
        var push: EventClient<[ChatMessageEvent]>
        /// market-svc's wallet, which pays for workspaces.
        var market: MarketClient
        /// auth-svc's word that users changed: what `auth` keeps is dropped.
        var usersChanged = ChangeSignal.local()
    }

    static func assemble(
        common: CommonConfiguration, configuration: ChatConfiguration = ChatConfiguration(), logger: Logger, engine: StoreEngine,
        dependencies: Dependencies, services: [any Service] = []
    ) throws -> ServiceAssembly {
        let origin = ObjectID.generate()
        let stores = try ChatStores(engine, origin: origin)
        // A round's push events in one call; half of push-svc's 1 MB body limit per call.
        let relay = OutboxRelay(store: stores.outbox, logger: logger, batchCount: ChatMessageEvent.maxPerCall, batchBytes: 512 << 10) { messages in
            try await dependencies.push.send(try messages.map { try JSONText.decode($0.payload).orThrow() })
        }
        let userSockets = UserSockets()
        let (verifier, bans, _) = AccessTokenVerifier.watching(jwks: dependencies.jwks, revocations: dependencies.revocations, logger: logger) {
            users in
            let closed = userSockets.close(users)
            if closed > 0 { logger.notice("closed \(closed) socket(s) of banned users") }
        }
        let replicas = ReplicaParts(engine: engine, origin: origin, logger: logger)
        let hub = replicas.hub
        let deliver: @Sendable (LiveFrame, Int64) -> Void =
            if let listener = replicas.listener { { frame, seq in listener.stored(frame, seq: seq) } } else { { frame, _ in hub.broadcast(frame) } }
        let poster = MessagePoster(messages: stores.messages, hub: hub, deliver: deliver, eventsWaiting: { relay.nudge() })
        let moderation = ContentModeration(
            store: engine.hiddenContent, changes: engine.changeSignal(channel: HiddenContentSchema.channel), kinds: [.message],
            catalog: .chat(stores.messages, engine: engine))
        let conversations = ConversationService(
            rooms: stores.rooms, messages: stores.messages, renderer: ChatRenderer(users: dependencies.auth), poster: poster, moderation: moderation)
        let files = configuration.files.backend(dataDirectory: common.dataDirectory, logger: logger)
        let chatFiles = FileStore(backend: files, service: .chat, area: "chats")
        let workspaces = try workspaceRoutes(
            common: common, configuration: configuration, logger: logger, stores: stores, dependencies: dependencies,
            poster: poster, chatFiles: chatFiles, moderation: moderation)
        let routes = Routes(
            chat: ChatRoutes(conversations: conversations, files: chatFiles), workspaces: workspaces.routes,
            usersChanged: dependencies.usersChanged, moderation: moderation, files: files)
        let background =
            engine.services + services + [relay, workspaces.sweeper] + replicas.services + dependencies.usersChanged.services + moderation.services
            + files.services + [bans]
        if configuration.protocolTest {
            logger.warning("CHAT_PROTOCOL_TEST is on: sockets serve the conformance-suite configuration")
            let sockets = SocketEndpoint(app: ProtocolTestApplication(), configuration: .protocolTest, secret: nil, logger: logger)
            return assemble(
                common: common, configuration: configuration, logger: logger, engine: engine, services: background, sockets: sockets, open: true,
                routes: routes, verifier: verifier)
        }
        var socketConfiguration = EngineConfiguration()
        socketConfiguration.flushWindow = configuration.flushWindow
        let sockets = SocketEndpoint(
            app: ChatRealtime(
                rooms: stores.rooms, workspaces: stores.workspaces, verifier: verifier, apps: dependencies.auth, hub: hub, users: userSockets,
                logger: logger),
            configuration: socketConfiguration, secret: common.internalSecret, logger: logger
        )
        return assemble(
            common: common, configuration: configuration, logger: logger, engine: engine, services: background, sockets: sockets, open: false,
            routes: routes, verifier: verifier)
    }

    /// The REST routes: §3's and §8's.
    private struct Routes {
        let chat: ChatRoutes
        let workspaces: WorkspaceRouteSet
        let usersChanged: ChangeSignal
        let moderation: ContentModeration
        /// Where chat files and workspace covers are kept (asked by `/health`).
        let files: any FileBackend
    }

    /// §8: workspaces, channels and DMs over the same messages, poster and chat files as §3.
    private static func workspaceRoutes(
        common: CommonConfiguration, configuration: ChatConfiguration, logger: Logger, stores: ChatStores, dependencies: Dependencies,
        poster: MessagePoster, chatFiles: FileStore, moderation: ContentModeration
    ) throws -> (routes: WorkspaceRouteSet, sweeper: AbandonedPurchaseSweeper) {
        let (workspaceStore, channelStore, messages) = (stores.workspaces, stores.channels, stores.messages)
        let renderer = WorkspaceRenderer(members: dependencies.auth)
        let covers = FileStore(backend: chatFiles.backend, service: .chat, area: "workspaces")
        let workspaces = WorkspaceService(
            workspaces: workspaceStore, channels: channelStore, renderer: renderer, market: dependencies.market, covers: covers,
            cost: configuration.workspaceCost, logger: logger)
        let upload = MessageUpload(files: chatFiles)
        let routes = WorkspaceRouteSet(
            covers: covers,
            workspaces: WorkspaceRoutes(workspaces: workspaces),
            channels: ChannelRoutes(
                channels: ChannelService(
                    access: workspaces, channels: channelStore, messages: messages, poster: poster, renderer: renderer, moderation: moderation),
                upload: upload),
            dms: DirectMessageRoutes(
                dms: DirectMessageService(
                    access: workspaces, workspaces: workspaceStore, channels: channelStore, messages: messages,
                    poster: poster, renderer: renderer, users: dependencies.auth, moderation: moderation), upload: upload)
        )
        return (routes, AbandonedPurchaseSweeper(workspaces: workspaces, logger: logger))
    }

    /// Sockets are mounted behind the internal secret, or (protocol-test switch) in the open; with
    /// a handoff path, the gateway may also hand them over (`SocketHandoffReceiver`).
    private static func assemble<App: SocketApplication>(
        common: CommonConfiguration, configuration: ChatConfiguration, logger: Logger, engine: StoreEngine, services: [any Service],
        sockets: SocketEndpoint<App>, open: Bool, routes: Routes, verifier: AccessTokenVerifier
    ) -> ServiceAssembly {
        let handoff = configuration.handoffPath.map { path -> any Service in
            SocketHandoffReceiver(path: path, logger: logger) { descriptor, request in sockets.adopt(descriptor: descriptor, request: request) }
        }
        return ServiceApplication.assemble(
            configuration: common, logger: logger,
            healthCheck: {
                try await engine.health(); try await routes.files.check()
            },
            services: services + (handoff.map { [$0] } ?? []),
            server: sockets.serverBuilder,
            openRoutes: { router in if open { sockets.register(router) } }
        ) { group in
            if !open { sockets.register(group) }
            let protected = group.group().add(middleware: AccessTokenMiddleware(verifier: verifier))
            routes.chat.register(internal: group, protected: protected)
            group.serve(InternalEndpoints.Activity.messages) { _, query, context in
                MessageActivity(
                    messages: try await DailyActivity(
                        from: "chat JOIN room ON room.id = chat.room_id", appColumn: "room.app_id", timeColumn: "chat.created_at"
                    ).series(on: engine, appID: context.appID, days: query.days))
            }
            routes.workspaces.register(internal: group, protected: protected)
            routes.usersChanged.register(InternalEndpoints.Chat.usersChanged, on: group)
            routes.moderation.register(on: group)
        }
    }
}
