/// The configuration the official Engine.IO / Socket.IO conformance suites expect of a server:
/// `/` and `/custom` accept anyone, `auth` is emitted back on connection, `message` is echoed as
/// `message-back` and `message-with-ack` is acknowledged with its own arguments. Only reachable
/// with chat-svc's protocol-test switch.
package struct ProtocolTestApplication: SocketApplication {
    package init() {}

    package func authorize(namespace: String, auth: JSONValue?, handshake: EngineHandshake) async -> Result<Void, SocketRefusal> {
        ["/", "/custom"].contains(namespace) ? .success(()) : .failure(.invalidNamespace)
    }

    package func connected(_ socket: NamespaceSocket<Void>) {
        // A moment after the CONNECT answer: the suites await each packet with a fresh listener,
        // and Node's `ws` (8.11) dispatches frames that arrive in one TCP read synchronously, so
        // a listener added after the first would miss the second. The reference server gets the
        // same gap from waiting for its write callback before flushing again.
        Task {
            try? await Task.sleep(for: .milliseconds(10))
            socket.emit("auth", [socket.auth])
        }
    }

    package func event(_ event: SocketEvent, from socket: NamespaceSocket<Void>) async -> SocketEvent.Reply? {
        switch event.name {
        case "message":
            socket.emit("message-back", event.arguments, attachments: event.attachments)
            return nil
        case "message-with-ack":
            return SocketEvent.Reply(arguments: event.arguments, attachments: event.attachments)
        default:
            return nil
        }
    }

    package func disconnected(_ socket: NamespaceSocket<Void>) {}
}
