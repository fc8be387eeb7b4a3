import NIOCore

/// Handing an accepted client connection from the gateway to chat-svc on the same machine: the
/// gateway admits a `/socket.io/` WebSocket, then passes the connection's descriptor and the
/// request (with the internal headers) over a Unix socket (`SCM_RIGHTS`); chat-svc adopts the
/// descriptor as its own NIO channel and answers the handshake on it. From then on the socket's
/// frames go between the client and chat-svc directly: the gateway is not on the path of a
/// single frame (a splice costs it a read and a write per frame). Without the setting, or when
/// a handoff fails, the gateway splices as before.
package enum SocketHandoff {
    package static let path = ConfigVariable(
        "CHAT_HANDOFF_SOCKET", default: "",
        "Unix socket through which the gateway hands WebSocket connections to chat-svc (both on one machine; the launcher sets it); empty: the gateway relays their bytes"
    )

    /// The largest request (head and anything read after it) one handoff carries.
    package static let maxMessageBytes = 64 * 1024

    /// The descriptor under a NIO socket channel. NIO keeps it internal, so it is read by
    /// reflection (`BaseSocketChannel.socket` → `BaseSocket.descriptor`); nil when the layout is
    /// not what this expects (then the gateway splices, and `SocketHandoffTests` fails loudly).
    package static func descriptor(of channel: any Channel) -> Int32? {
        guard let socket = storedProperty("socket", of: channel) else { return nil }
        return storedProperty("descriptor", of: socket) as? Int32
    }

    private static func storedProperty(_ name: String, of subject: Any) -> Any? {
        var mirror: Mirror? = Mirror(reflecting: subject)
        while let current = mirror {
            if let child = current.children.first(where: { $0.label == name }) { return child.value }
            mirror = current.superclassMirror
        }
        return nil
    }
}
