import Contracts
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Logging
import ServiceKit
import ServiceLifecycle
import SocketIO

/// Rooms, messages, files and search over REST, and the Socket.IO server (API.md §3).
package enum ChatService {
    package static func assemble(_ common: CommonConfiguration, _ reader: ConfigReader, _ logger: Logger) throws -> ServiceAssembly {
        let configuration = try ChatConfiguration(reader: reader, host: common.host)
        let database = try DatabaseFactory.openPool(at: common.databasePath, migrator: ChatMigrations.migrator)
        let http = HTTPClientService.make()
        let client = InternalClient(http: http.client, configuration: common)
        let dependencies = Dependencies(users: .live(client), jwks: .live(client: client), apps: .live(client),
            push: .live(client, InternalEndpoints.Push.chatMessage, appID: \.appID)
        )
        return try assemble(common: common, configuration: configuration, logger: logger, database: database, dependencies: dependencies, services: [http])
    }

    /// What chat-svc asks other services; tests pass fakes.
    struct Dependencies: Sendable {
        var users: UsersClient
        var jwks: JWKSClient
        var apps: AppsClient
        /// push-svc, told of messages.
        var push: EventClient<ChatMessageEvent>
    }

    static func assemble(
        common: CommonConfiguration, configuration: ChatConfiguration = ChatConfiguration(), logger: Logger, database: DatabasePool,
        dependencies: Dependencies, services: [any Service] = []
    ) throws -> ServiceAssembly {
        let relay = OutboxRelay(store: SQLiteOutboxStore(database: database), logger: logger) { message in
            try await dependencies.push.send(try JSONText.decode(message.payload).orThrow())
        }
        let hub = RoomHub()
        let rooms = SQLiteRoomStore(database: database)
        let verifier = AccessTokenVerifier(jwks: dependencies.jwks)
        let conversations = ConversationService(
            rooms: rooms, messages: SQLiteMessageStore(database: database), renderer: ChatRenderer(users: dependencies.users), hub: hub,
            eventsWaiting: { relay.nudge() }
        )
        let routes = ChatRoutes(conversations: conversations, files: try FileStore(dataDirectory: common.dataDirectory, area: "chats"))
        if configuration.protocolTest {
            logger.warning("CHAT_PROTOCOL_TEST is on: sockets serve the conformance-suite configuration")
            let sockets = SocketEndpoint(app: ProtocolTestApplication(), configuration: .protocolTest, secret: nil, logger: logger)
            return assemble(common: common, logger: logger, database: database, services: services + [relay], sockets: sockets, open: true, routes: routes, verifier: verifier)
        }
        let sockets = SocketEndpoint(
            app: ChatRealtime(rooms: rooms, verifier: verifier, apps: dependencies.apps, hub: hub, logger: logger),
            configuration: EngineConfiguration(), secret: common.internalSecret, logger: logger
        )
        return assemble(common: common, logger: logger, database: database, services: services + [relay], sockets: sockets, open: false, routes: routes, verifier: verifier)
    }

    /// Sockets are mounted behind the internal secret, or (protocol-test switch) in the open.
    private static func assemble<App: SocketApplication>(
        common: CommonConfiguration, logger: Logger, database: DatabasePool, services: [any Service], sockets: SocketEndpoint<App>, open: Bool,
        routes: ChatRoutes, verifier: AccessTokenVerifier
    ) -> ServiceAssembly {
        ServiceApplication.assemble(
            configuration: common, logger: logger, healthCheck: { try await DatabaseFactory.check(database) }, services: services,
            server: sockets.serverBuilder,
            openRoutes: { router in if open { sockets.register(router) } }
        ) { group in
            if !open { sockets.register(group) }
            routes.register(internal: group, protected: group.group().add(middleware: AccessTokenMiddleware(verifier: verifier)))
        }
    }
}
