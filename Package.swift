// swift-tools-version:6.1
import PackageDescription

/// One settings array for every target (Swift 6 language mode is the default for tools 6.x).
/// Warnings are errors: one of them ("no 'async' operations occur within 'await'") is how a
/// blocking GRDB read slips onto the concurrency pool and deadlocks it under load.
/// Release builds optimise across modules: the default (conservative) cross-module optimisation
/// only looks at `public` declarations, and ours are `package`, so without it every call into
/// Contracts and ServiceKit stayed an unspecialised call (services ~12% slower, measured).
let settings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .unsafeFlags(["-warnings-as-errors"]),
    .unsafeFlags(["-cross-module-optimization"], .when(configuration: .release)),
    // Exclusivity is checked in debug builds, where every test runs; release builds skip the
    // runtime checks, a measured 2–3 % of the gateway's CPU (swift_beginAccess) under load.
    .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release)),
]

let hummingbird = Target.Dependency.product(name: "Hummingbird", package: "hummingbird")
let hummingbirdTesting = Target.Dependency.product(name: "HummingbirdTesting", package: "hummingbird")
let argumentParser = Target.Dependency.product(name: "ArgumentParser", package: "swift-argument-parser")
let webSocket = Target.Dependency.product(name: "HummingbirdWebSocket", package: "hummingbird-websocket")
let webSocketClient = Target.Dependency.product(name: "HummingbirdWSClient", package: "hummingbird-websocket")
let grdb = Target.Dependency.product(name: "GRDB", package: "GRDB.swift")
let postgres = Target.Dependency.product(name: "PostgresNIO", package: "postgres-nio")
/// What a service with a store links: either engine, the outbox and the engine's choice.
let storage: [Target.Dependency] = ["SQLiteStorage", "PostgresStorage", "Outbox", "Storage", grdb]

/// Stamps one service: a library with its routes and logic under `Services/<dir>/Library`, a thin
/// executable under `Services/<dir>/Main`, and its in-process tests under `Tests/<library>Tests`.
func service(
    _ dir: String,
    library: String,
    executable: String,
    dependencies: [Target.Dependency] = [],
    resources: [Resource] = []
) -> [Target] {
    [
        .target(
            name: library,
            dependencies: ["Contracts", "ServiceKit", hummingbird] + dependencies,
            path: "Services/\(dir)/Library",
            resources: resources,
            swiftSettings: settings
        ),
        .executableTarget(
            name: executable,
            dependencies: [.target(name: library), "ServiceKit", argumentParser],
            path: "Services/\(dir)/Main",
            swiftSettings: settings
        ),
        .testTarget(
            name: "\(library)Tests",
            dependencies: [.target(name: library), "Contracts", "ServiceKit", "TestSupport", hummingbirdTesting]
                + dependencies,
            path: "Tests/\(library)Tests",
            swiftSettings: settings
        ),
    ]
}

let services: [(dir: String, library: String, executable: String, deps: [Target.Dependency])] = [
    (
        "Gateway", "Gateway", "gateway",
        [
            .product(name: "AsyncHTTPClient", package: "async-http-client"), .product(name: "HummingbirdCore", package: "hummingbird"),
            "APIDocs", .product(name: "OpenAPIKit", package: "OpenAPIKit"), "ServiceClients", "CEventPoll",
        ]
    ),
    (
        "Auth", "AuthService", "auth-svc",
        [
            .product(name: "JWTKit", package: "jwt-kit"), .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "NIOPosix", package: "swift-nio"), .product(name: "AsyncHTTPClient", package: "async-http-client"), "ServiceClients",
            "FileStorage", "Passwords",
        ] + storage
    ),
    (
        "Chat", "ChatService", "chat-svc",
        [
            .product(name: "HummingbirdCore", package: "hummingbird"), "SocketIO", "ServiceClients", "FileStorage", "Moderation",
        ] + storage
    ),
    (
        "Market", "MarketService", "market-svc",
        [
            .product(name: "AsyncHTTPClient", package: "async-http-client"), "ServiceClients", "FileStorage", "Moderation",
        ] + storage
    ),
    (
        "Geo", "GeoService", "geo-svc",
        [
            .product(name: "HummingbirdCore", package: "hummingbird"), "ZlibCoding", "SQLiteStorage", "Storage", "Backup", "ServiceClients", grdb,
        ]
    ),
    (
        "PaymentVerify", "PaymentVerifyService", "payment-verify-svc",
        [
            .product(name: "AsyncHTTPClient", package: "async-http-client"), "ServiceClients",
        ] + storage
    ),
    (
        "Push", "PushService", "push-svc",
        [
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "JWTKit", package: "jwt-kit"), .product(name: "NIOSSL", package: "swift-nio-ssl"),
        ] + storage
    ),
    (
        "Admin", "AdminService", "admin-svc",
        [
            .product(name: "AsyncHTTPClient", package: "async-http-client"), .product(name: "Crypto", package: "swift-crypto"),
            "ServiceClients", "Passwords", "Backup", .product(name: "Mustache", package: "swift-mustache"),
            .product(name: "Prometheus", package: "swift-prometheus"),
        ] + storage
    ),
]

/// Data a service carries in its resource bundle: geo-svc's legal-dong boundaries (NGII, open
/// data with attribution; see the folder's README), so a fresh clone geocodes out of the box.
/// admin-svc carries the console's templates, stylesheet and script.
let resources: [String: [Resource]] = ["Geo": [.copy("Resources")], "Admin": [.copy("Console/Assets")]]

let package = Package(
    name: "glint-backend",
    platforms: [.macOS(.v15)],
    products: services.map { .executable(name: $0.executable, targets: [$0.executable]) }
        + [.executable(name: "glint", targets: ["glint"])],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.7.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.0"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.0"),
        // The API documents (OpenAPI 3.1); its external-reference loading is not needed.
        .package(url: "https://github.com/mattpolzin/OpenAPIKit.git", from: "6.4.0", traits: []),
        // The stores' PostgreSQL engine (`<SVC>_DATABASE_URL`), for deployments beyond one machine.
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.0"),
        // The operator console's pages, rendered on the server (admin-svc).
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.0"),
    ],
    targets: [
        .target(name: "Contracts", path: "Shared/Contracts", swiftSettings: settings),
        .systemLibrary(name: "CZlib", path: "Shared/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "ZlibCoding", dependencies: ["CZlib"], path: "Shared/ZlibCoding", swiftSettings: settings),
        .target(name: "CSocketHandoff", path: "Shared/CSocketHandoff"),
        .target(name: "CConcurrencyHook", path: "Shared/CConcurrencyHook"),
        .target(name: "CEventPoll", path: "Shared/CEventPoll"),
        // ServiceKit is the HTTP runtime every process runs on; the storage, outbox, files and
        // clients are targets of their own, so a service links only what it uses.
        .target(
            name: "ServiceKit",
            dependencies: [
                "Contracts", "CSocketHandoff", "CConcurrencyHook", hummingbird, .product(name: "HummingbirdCore", package: "hummingbird"), webSocket,
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            path: "Shared/ServiceKit",
            swiftSettings: settings
        ),
        .target(name: "SQLiteStorage", dependencies: ["ServiceKit", grdb], path: "Shared/SQLiteStorage", swiftSettings: settings),
        .target(
            name: "PostgresStorage",
            dependencies: ["ServiceKit", postgres, .product(name: "NIOSSL", package: "swift-nio-ssl")],
            path: "Shared/PostgresStorage",
            swiftSettings: settings
        ),
        .target(name: "Outbox", dependencies: ["ServiceKit", "PostgresStorage", grdb], path: "Shared/Outbox", swiftSettings: settings),
        .target(
            name: "Storage", dependencies: ["Contracts", "ServiceKit", "SQLiteStorage", "PostgresStorage", "Outbox", grdb], path: "Shared/Storage",
            swiftSettings: settings
        ),
        // Snapshots of the stores and files (`glint backup`).
        .target(
            name: "Backup",
            dependencies: [
                "Contracts", "ServiceKit", "FileStorage", "ZlibCoding", grdb, .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"), .product(name: "Hummingbird", package: "hummingbird"),
            ], path: "Shared/Backup",
            swiftSettings: settings),
        .target(
            name: "FileStorage",
            dependencies: [
                "ServiceKit", hummingbird, .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            path: "Shared/FileStorage",
            swiftSettings: settings),
        // Operators' hiding of content, in the services that keep it (market-svc, chat-svc).
        .target(
            name: "Moderation", dependencies: ["Contracts", "ServiceKit", "Storage", "SQLiteStorage", "PostgresStorage", grdb],
            path: "Shared/Moderation", swiftSettings: settings),
        // bcrypt, for app users' passwords (auth-svc) and operators' (admin-svc).
        .target(
            name: "Passwords", dependencies: ["ServiceKit", .product(name: "NIOPosix", package: "swift-nio")], path: "Shared/Passwords",
            swiftSettings: settings),
        .target(name: "ServiceClients", dependencies: ["Contracts", "ServiceKit"], path: "Shared/ServiceClients", swiftSettings: settings),
        .target(
            name: "APIDocs",
            dependencies: ["Contracts", .product(name: "OpenAPIKit", package: "OpenAPIKit")],
            path: "Shared/APIDocs",
            swiftSettings: settings
        ),
        .target(
            name: "SocketIO",
            dependencies: [
                hummingbird, .product(name: "HummingbirdCore", package: "hummingbird"), .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "Logging", package: "swift-log"),
            ],
            path: "Shared/SocketIO",
            swiftSettings: settings
        ),
        .target(
            name: "Simulators",
            dependencies: [
                "ServiceKit", hummingbird, .product(name: "JWTKit", package: "jwt-kit"), .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "HummingbirdCore", package: "hummingbird"), .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            path: "Shared/Simulators",
            swiftSettings: settings
        ),
        .target(
            name: "TestSupport",
            dependencies: [
                "Contracts", "ServiceKit", "Storage", "SQLiteStorage", "PostgresStorage", "Simulators", "APIDocs", "FileStorage", hummingbird,
                hummingbirdTesting, .product(name: "JWTKit", package: "jwt-kit"), .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "CryptoExtras", package: "swift-crypto"), webSocketClient, .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Tests/Support",
            swiftSettings: settings
        ),
        .target(
            name: "Launcher",
            dependencies: ["Contracts", "ServiceKit", "Simulators", "FileStorage", "Backup", "Outbox", "Storage", "ZlibCoding", grdb]
                + services.map { .target(name: $0.library) },
            path: "Services/Launcher/Library",
            swiftSettings: settings
        ),
        .executableTarget(
            name: "glint",
            dependencies: ["Launcher", "AdminService", "AuthService", argumentParser],
            path: "Services/Launcher/Main",
            swiftSettings: settings
        ),
        .testTarget(
            name: "ContractsTests",
            dependencies: ["Contracts"],
            path: "Tests/ContractsTests",
            swiftSettings: settings
        ),
        .testTarget(
            name: "APIDocsTests",
            dependencies: ["APIDocs", "Contracts"],
            path: "Tests/APIDocsTests",
            swiftSettings: settings
        ),
        .testTarget(
            name: "SocketIOTests",
            dependencies: ["SocketIO", .product(name: "NIOEmbedded", package: "swift-nio"), .product(name: "NIOWebSocket", package: "swift-nio")],
            path: "Tests/SocketIOTests",
            swiftSettings: settings
        ),
        .testTarget(
            name: "ServiceKitTests",
            dependencies: ["ServiceKit", "ServiceClients", "FileStorage", "Passwords", "Backup", "TestSupport", hummingbirdTesting] + storage + [
                postgres
            ],
            path: "Tests/ServiceKitTests",
            swiftSettings: settings
        ),
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "Contracts", "ServiceKit", "Storage", "PostgresStorage", "Launcher", "TestSupport", "FileStorage", "Backup", "ZlibCoding", grdb,
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            path: "Tests/IntegrationTests",
            // The python-socketio client the tests run (not Swift).
            exclude: ["Python"],
            swiftSettings: settings
        ),
    ]
        + services.flatMap {
            service($0.dir, library: $0.library, executable: $0.executable, dependencies: $0.deps, resources: resources[$0.dir] ?? [])
        }
)
