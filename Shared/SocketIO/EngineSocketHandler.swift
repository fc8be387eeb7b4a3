import NIOCore
import NIOWebSocket

/// An Engine.IO session's WebSocket, in the connection's pipeline after NIO's frame decoder and
/// aggregator. Frames are written as bytes already encoded (a broadcast's are shared by every
/// socket) on the connection's event loop, and flushed once per tick by the loop's
/// `LoopFlusher`. Engine.IO pongs are handled here; messages go to the Socket.IO layer in order,
/// one task per burst rather than one per socket. A socket the client stops reading is closed
/// once NIO holds more than the session's `maxQueuedBytes` for it.
final class EngineSocketHandler: ChannelInboundHandler, @unchecked Sendable {
    // @unchecked: `eventLoop`, `session` and `receive` are immutable; everything else is touched
    // on `eventLoop` only (writes from elsewhere hop there first).
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = ByteBuffer

    /// Opening a new session, or taking over a polling session that asked to upgrade (probe,
    /// then `5`).
    enum Start {
        case open
        case upgrade
    }

    let eventLoop: any EventLoop
    let session: EngineSession
    private let flusher: LoopFlusher
    private let receive: @Sendable (EnginePacket, EngineSession) async -> Void
    private var context: ChannelHandlerContext?
    private var upgrading: Bool
    private var flushPending = false
    /// Bytes of the loop's broadcast bytes for this socket, not yet handed to NIO.
    private var queued: Range<Int>?

    init(session: EngineSession, start: Start, flusher: LoopFlusher, receive: @escaping @Sendable (EnginePacket, EngineSession) async -> Void) {
        self.eventLoop = flusher.eventLoop
        self.session = session
        self.flusher = flusher
        self.receive = receive
        self.upgrading = start == .upgrade
    }

    // MARK: Outbound

    /// Writes `frames` from any thread, after whatever was enqueued before them.
    func enqueue(_ frames: [ByteBuffer]) {
        eventLoop.execute { for frame in frames { self.write(frame) } }
    }

    /// Writes the same encoded frame to each socket: one hop per event loop, not per socket.
    /// The frame goes once into the loop's broadcast bytes; each socket only notes which of
    /// those bytes are its own, so the frames a socket gets between two flushes (a room's
    /// messages, a shared ping) reach NIO as one slice, one write, not one write each.
    static func broadcast(_ frame: ByteBuffer, to sockets: [EngineSocketHandler]) {
        // A process has a loop per core: a short list beats hashing every socket.
        var byLoop: [(flusher: LoopFlusher, sockets: [EngineSocketHandler])] = []
        for socket in sockets {
            if let index = byLoop.firstIndex(where: { $0.flusher === socket.flusher }) {
                byLoop[index].sockets.append(socket)
            } else {
                byLoop.append((socket.flusher, [socket]))
            }
        }
        for (flusher, group) in byLoop {
            flusher.eventLoop.execute {
                let range = flusher.append(frame)
                for socket in group { socket.queue(range) }
            }
        }
    }

    /// On the event loop: these bytes of the loop's broadcast bytes are for this socket too.
    private func queue(_ range: Range<Int>) {
        guard context != nil else { return }
        if let queued, queued.upperBound == range.lowerBound {
            self.queued = queued.lowerBound..<range.upperBound
        } else {
            writeQueued()
            queued = range
        }
        needsFlush()
    }

    /// On the event loop: queued in NIO after what the socket was sent before, flushed with the
    /// loop's next flush.
    func write(_ frame: ByteBuffer) {
        guard let context else { return }
        writeQueued()
        context.write(wrapOutboundOut(frame), promise: nil)
        needsFlush()
    }

    /// Hands NIO the broadcast bytes noted for this socket.
    private func writeQueued() {
        guard let queued, let context else { return }
        self.queued = nil
        context.write(wrapOutboundOut(flusher.broadcastBytes(queued)), promise: nil)
    }

    private func needsFlush() {
        if !flushPending {
            flushPending = true
            flusher.needsFlush(self)
        }
    }

    func flushNow() {
        flushPending = false
        writeQueued()
        context?.flush()
    }

    /// Ends the WebSocket with a normal close frame (the session has closed).
    func shutDown() {
        eventLoop.execute {
            guard let context = self.context, context.channel.isActive else { return }
            self.flushPending = false
            self.writeQueued()
            context.writeAndFlush(self.wrapOutboundOut(WebSocketFrames.close(code: 1000, allocator: context.channel.allocator)), promise: nil)
            context.close(promise: nil)
        }
    }

    // MARK: Channel events

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        // Beyond this many bytes waiting in NIO (the kernel's buffer full too) the client is not
        // reading: `channelWritabilityChanged` closes the session.
        let high = session.maxQueuedBytes
        context.channel.setOption(ChannelOptions.writeBufferWaterMark, value: .init(low: high / 2, high: high)).whenFailure { _ in }
        if !upgrading {
            write(WebSocketFrames.packet(session.openPacket, allocator: context.channel.allocator))
            for packet in session.attach(self) { write(WebSocketFrames.packet(packet, allocator: context.channel.allocator)) }
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        guard frame.maskKey != nil || !frame.opcode.isDataFrame else {
            // RFC 6455 §5.1: a client's frames are masked.
            return fail(code: 1002, context: context)
        }
        switch frame.opcode {
        case .text:
            let text = String(buffer: frame.unmaskedData)
            guard let packet = try? EnginePacket.fromWebSocketText(text) else {
                session.close(reason: "malformed packet")
                return
            }
            received(packet, context: context)
        case .binary:
            received(.binary(Array(frame.unmaskedData.readableBytesView)), context: context)
        case .ping:
            write(WebSocketFrames.frame(.pong, frame.unmaskedData.readableBytesView, allocator: context.channel.allocator))
        case .connectionClose:
            context.writeAndFlush(wrapOutboundOut(WebSocketFrames.close(code: 1000, allocator: context.channel.allocator)), promise: nil)
            context.close(promise: nil)
        default:
            break  // pongs; continuations never get past the aggregator
        }
    }

    private func received(_ packet: EnginePacket, context: ChannelHandlerContext) {
        if upgrading {
            if packet == EnginePacket(.ping, .text("probe")) {
                write(WebSocketFrames.packet(EnginePacket(.pong, .text("probe")), allocator: context.channel.allocator))
                session.releasePendingPoll()
            } else if packet.kind == .upgrade {
                upgrading = false
                // What was queued for polling goes first; later sends come through `enqueue`.
                for packet in session.completeUpgrade(to: self) {
                    write(WebSocketFrames.packet(packet, allocator: context.channel.allocator))
                }
            }
            return
        }
        switch packet.kind {
        case .pong: session.receivedPong()
        case .close: session.close(reason: "client close")
        case .message:
            switch session.addInbound(packet) {
            case .startReader:
                let (session, receive) = (self.session, self.receive)
                Task {
                    while let packet = session.nextInbound() { await receive(packet, session) }
                }
            case .queued:
                break
            case .overflow:
                session.close(reason: "inbound queue full")
            }
        case .noop, .ping: break
        case .open, .upgrade: session.close(reason: "unexpected packet")
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if upgrading {
            session.abortUpgrade()
        } else {
            session.close(reason: "transport close")
        }
        context.fireChannelInactive()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if !context.channel.isWritable { session.close(reason: "outbound buffer full (slow consumer)") }
        context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent {
            // Graceful shutdown: a socket cannot be handed over; its client reconnects.
            session.close(reason: "server shutting down")
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        switch error {
        case NIOWebSocketError.invalidFrameLength, NIOWebSocketFrameAggregator.Error.accumulatedFrameSizeIsTooLarge:
            fail(code: 1009, context: context)
        case is NIOWebSocketError, is NIOWebSocketFrameAggregator.Error:
            fail(code: 1002, context: context)
        default:
            context.close(promise: nil)
        }
    }

    private func fail(code: UInt16, context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(WebSocketFrames.close(code: code, allocator: context.channel.allocator)), promise: nil)
        context.close(promise: nil)
    }
}

extension WebSocketOpcode {
    fileprivate var isDataFrame: Bool { self == .text || self == .binary || self == .continuation }
}
