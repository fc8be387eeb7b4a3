import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOWebSocket
import Synchronization

/// Engine.IO v4 over HTTP long-polling and WebSocket, with the upgrade from one to the other.
/// Sessions live in memory; the handler above sees message packets in order.
package final class EngineServer<Handler: EngineHandler>: Sendable {
    package let configuration: EngineConfiguration
    let handler: Handler
    private let logger: Logger
    private let sessions = Mutex<[String: EngineSession]>([:])
    private let heartbeat: Heartbeat
    private let flushers: LoopFlushers

    package init(configuration: EngineConfiguration, handler: Handler, logger: Logger) {
        self.configuration = configuration
        self.handler = handler
        self.logger = logger
        self.heartbeat = Heartbeat(configuration: configuration)
        self.flushers = LoopFlushers(window: .milliseconds(configuration.flushWindow.milliseconds))
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

    /// The handlers of an Engine.IO WebSocket (`GET …?transport=websocket`, a valid WebSocket
    /// handshake), to put in its connection's pipeline once the 101 is written: NIO's frame
    /// decoder and aggregator, then the session's socket (a new session, or the upgrade of a
    /// polling one). Nil when the request is not one (bad query, unknown session, no upgrade
    /// possible): plain HTTP then answers it (400).
    package func webSocket(uri: String, handshake: @autoclosure () -> EngineHandshake, eventLoop: any EventLoop) -> [any ChannelHandler]? {
        let parameters = URI(uri).queryParameters
        guard let query = try? EngineQuery({ parameters[Substring($0)].map(String.init) }), query.transport == .websocket else {
            return nil
        }
        let receive: @Sendable (EnginePacket, EngineSession) async -> Void = { [weak self] packet, session in
            await self?.receive(packet, on: session)
        }
        let socket: EngineSocketHandler
        if let sid = query.sid {
            guard let session = session(sid), session.beginUpgrade() else { return nil }
            socket = EngineSocketHandler(session: session, start: .upgrade, flusher: flushers.flusher(for: eventLoop), receive: receive)
        } else {
            let session = open(transport: .websocket, handshake: handshake())
            socket = EngineSocketHandler(session: session, start: .open, flusher: flushers.flusher(for: eventLoop), receive: receive)
        }
        return [
            ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: configuration.maxPayload)),
            NIOWebSocketFrameAggregator(minNonFinalFragmentSize: 1, maxAccumulatedFrameCount: 256, maxAccumulatedFrameSize: configuration.maxPayload),
            socket,
        ]
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
        heartbeat.start(session)
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
