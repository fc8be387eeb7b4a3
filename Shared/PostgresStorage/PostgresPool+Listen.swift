import Logging
import PostgresNIO
import ServiceKit

extension PostgresPool {
    /// Listens on `channel` until the task is cancelled, on a connection of its own: `connected`
    /// runs each time `LISTEN` is in place (what was missed before it must be read there, since a
    /// notification sent while no connection listened is gone), `received` for each
    /// notification, `disconnected` when a connection broke. Reconnects at once after a
    /// connection that had worked, every second while the database is away.
    package func listen(
        on channel: String,
        connected: (PostgresConnection) async throws -> Void,
        received: (PostgresConnection, PostgresNotification) async throws -> Void,
        disconnected: () -> Void = {}
    ) async {
        while !Task.isCancelled {
            var worked = false
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: channel) { notifications in
                        try await connected(connection)
                        worked = true
                        for try await notification in notifications { try await received(connection, notification) }
                    }
                }
            } catch {
                if !Task.isCancelled {
                    logger.warning(
                        "listener lost its connection; reconnecting",
                        metadata: ["channel": .string(channel), "error": "\(String(reflecting: error))"])
                }
            }
            disconnected()
            try? await Task.sleep(for: worked ? .milliseconds(50) : .seconds(1))
        }
    }
}
