import FileStorage
import ServiceKit
import Storage

/// chat-svc's own environment variables.
package enum ChatSettings {
    package static let protocolTest = ConfigVariable(
        "CHAT_PROTOCOL_TEST", default: "false",
        "serve the Socket.IO conformance-suite configuration instead of chat sockets (tests only; refused unless HOST is loopback)"
    )

    package static let workspaceCost = ConfigVariable(
        "SLP_WORKSPACE_COST", default: "50", "coins a workspace costs its creator (API.md §8; 0 = free)"
    )

    package static let flushWindow = ConfigVariable(
        "CHAT_FLUSH_WINDOW_MS", default: "30",
        "under steady traffic, a socket's frames are written at most this often (milliseconds; 0: at the end of each event-loop tick): fewer system calls per delivery for that much latency"
    )

    package static let databaseURL = ConfigVariable.databaseURL("CHAT", service: "chat-svc")

    package static var all: [ConfigVariable] { [protocolTest, workspaceCost, flushWindow, SocketHandoff.path, databaseURL] }
}

struct ChatConfiguration: Sendable {
    var protocolTest = false
    var workspaceCost = 50
    /// Where the gateway hands WebSocket connections over (`SocketHandoff`); nil: it relays them.
    var handoffPath: String?
    var flushWindow: Duration = .milliseconds(30)
    /// PostgreSQL instead of the SQLite file.
    var databaseURL: String?
    /// Where uploads are kept: the data folder, or a bucket.
    var files = FileStorageConfiguration.dataFolder

    init() {}

    init(reader: ConfigReader, host: String) throws {
        protocolTest = try reader.bool(ChatSettings.protocolTest)
        if protocolTest, !["127.0.0.1", "localhost", "::1"].contains(host) {
            protocolTest = try reader.refuse(ChatSettings.protocolTest, "only allowed when HOST is a loopback address", standIn: false)
        }
        workspaceCost = try reader.int(ChatSettings.workspaceCost, in: 0...1_000_000)
        flushWindow = .milliseconds(try reader.int(ChatSettings.flushWindow, in: 0...1000))
        let path = try reader.string(SocketHandoff.path)
        handoffPath = path.isEmpty ? nil : path
        databaseURL = try reader.databaseURL(ChatSettings.databaseURL)
        files = try FileStorageConfiguration(reader: reader)
        try reader.finish()
    }
}
