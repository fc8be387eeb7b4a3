import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import Synchronization

/// Engine.IO v4 over HTTP long-polling and WebSocket, with the upgrade from one to the other.
/// Sessions live in memory; the handler above sees message packets in order.
package final class EngineServer<Handler: EngineHandler>: Sendable {
    package let configuration: EngineConfiguration
    let handler: Handler
    private let logger: Logger
    private let sessions = Mutex<[String: EngineSession]>([:])

    package init(configuration: EngineConfiguration, handler: Handler, logger: Logger) {
        self.configuration = configuration
        self.handler = handler
        self.logger = logger
    }

    // MARK: HTTP long-polling

    package func respond(to request: Request, handshake: @autoclosure () -> EngineHandshake) async -> Response {
        do {
            let query = try EngineQuery { request.uri.queryParameters[Substring($0)].map(String.init) }
            // A WebSocket request that reached plain HTTP was not upgradable (bad sid, no headers).
            guard query.transport == .polling else { throw EngineError.badRequest }
            guard let sid = query.sid else {
                guard request.method == .get else { throw EngineError.badHandshakeMethod }
                let session = open(transport: .polling, handshake: handshake())
                return Self.text(EnginePacket.encodePolling([session.openPacket]))
            }
            guard let session = session(sid), session.acceptsPolling else { throw EngineError.unknownSession }
            switch request.method {
            case .get: return try await poll(session)
            case .post: return try await post(request, to: session)
            default: throw EngineError.badRequest
            }
        } catch let error as EngineError {
            return error.response
        } catch {
            return EngineError.badRequest.response
        }
    }

    private func poll(_ session: EngineSession) async throws -> Response {
        guard session.beginPoll() else {
            session.close(reason: "overlapping poll")
            throw EngineError.badRequest
        }
        defer { session.endPoll() }
        let packets = await session.take() ?? [EnginePacket(.noop)]
        return Self.text(EnginePacket.encodePolling(packets))
    }

    private func post(_ request: Request, to session: EngineSession) async throws -> Response {
        guard session.beginPost() else {
            session.close(reason: "overlapping post")
            throw EngineError.badRequest
        }
        defer { session.endPost() }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: configuration.maxPayload)
        } catch {
            session.close(reason: "payload too large")
            throw EngineError.payloadTooLarge
        }
        let packets: [EnginePacket]
        do {
            packets = try EnginePacket.decodePolling(String(buffer: body))
        } catch {
            session.close(reason: "malformed payload")
            throw EngineError.badRequest
        }
        for packet in packets { await receive(packet, on: session) }
        return Self.text("ok")
    }

    private static func text(_ body: String) -> Response {
        Response(status: .ok, headers: [.contentType: "text/plain; charset=UTF-8"], body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    // MARK: WebSocket

    package typealias SocketHandler = WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>

    /// Decides a WebSocket upgrade. Requests it refuses go on to plain HTTP, which answers 400.
    package func upgrade(_ head: HTTPRequest, handshake: @autoclosure () -> EngineHandshake) -> ShouldUpgradeResult<SocketHandler> {
        let parameters = URI(head.path ?? "/").queryParameters
        guard let query = try? EngineQuery({ parameters[Substring($0)].map(String.init) }), query.transport == .websocket else {
            return .dontUpgrade
        }
        guard let sid = query.sid else {
            let handshake = handshake()
            return .upgrade([:]) { [self] inbound, outbound, _ in
                let session = open(transport: .websocket, handshake: handshake)
                try await outbound.write(.text(session.openPacket.webSocketText ?? ""))
                await run(session, inbound: inbound, outbound: outbound, upgrading: false)
            }
        }
        guard let session = session(sid), session.beginUpgrade() else { return .dontUpgrade }
        return .upgrade([:]) { [self] inbound, outbound, _ in
            await run(session, inbound: inbound, outbound: outbound, upgrading: true)
        }
    }

    /// Reads frames until the client goes; a writer task drains the session's queue into the
    /// socket once the session is on WebSocket (at once, or after the upgrade's `5`).
    private func run(_ session: EngineSession, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, upgrading: Bool) async {
        await withTaskGroup(of: Void.self) { group in
            let writer: @Sendable () async -> Void = {
                while let packets = await session.take() {
                    do {
                        for packet in packets { try await outbound.write(Self.frame(packet)) }
                    } catch {
                        session.close(reason: "transport error")
                        return
                    }
                }
                try? await outbound.close(.normalClosure, reason: nil)
            }
            var upgrading = upgrading
            if !upgrading { group.addTask(operation: writer) }
            do {
                for try await message in inbound.messages(maxSize: configuration.maxPayload) {
                    let packet: EnginePacket
                    switch message {
                    case .text(let text): packet = try EnginePacket.fromWebSocketText(text)
                    case .binary(let buffer): packet = .binary(Array(buffer.readableBytesView))
                    }
                    if upgrading {
                        if packet == EnginePacket(.ping, .text("probe")) {
                            try await outbound.write(.text(EnginePacket(.pong, .text("probe")).webSocketText ?? ""))
                            session.releasePendingPoll()
                        } else if packet.kind == .upgrade {
                            upgrading = false
                            session.completeUpgrade()
                            group.addTask(operation: writer)
                        }
                        continue
                    }
                    await receive(packet, on: session)
                    if session.isClosed { break }
                }
            } catch {
                logger.debug("websocket ended", metadata: ["sid": "\(session.id)", "error": "\(error)"])
            }
            if upgrading {
                session.abortUpgrade()
            } else {
                session.close(reason: "transport close")
            }
        }
    }

    private static func frame(_ packet: EnginePacket) -> WebSocketOutboundWriter.OutboundFrame {
        switch packet.payload {
        case .binary(let bytes): .binary(ByteBuffer(bytes: bytes))
        case .text: .text(packet.webSocketText ?? "")
        }
    }

    // MARK: Sessions

    private func open(transport: EngineSession.Transport, handshake: EngineHandshake) -> EngineSession {
        let session = EngineSession(
            id: EngineSession.newID(), transport: transport, handshake: handshake, configuration: configuration
        ) { [weak self] session, reason in
            guard let self else { return }
            _ = self.sessions.withLock { $0.removeValue(forKey: session.id) }
            self.logger.debug("engine session closed", metadata: ["sid": "\(session.id)", "reason": "\(reason)"])
            self.handler.closed(session, reason: reason)
        }
        sessions.withLock { $0[session.id] = session }
        session.startHeartbeat()
        handler.opened(session)
        return session
    }

    /// The live session with this id; a session whose ping went unanswered is closed here even
    /// if its timer has not fired yet.
    private func session(_ sid: String) -> EngineSession? {
        guard let session = sessions.withLock({ $0[sid] }) else { return nil }
        if session.timedOut() {
            session.close(reason: "ping timeout")
            return nil
        }
        return session
    }

    private func receive(_ packet: EnginePacket, on session: EngineSession) async {
        switch packet.kind {
        case .pong: session.receivedPong()
        case .close: session.close(reason: "client close")
        case .message: await handler.received(packet.payload, on: session)
        case .noop, .ping: break
        case .open, .upgrade: session.close(reason: "unexpected packet")
        }
    }
}
