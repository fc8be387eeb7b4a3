import Foundation
import NIOCore
import Synchronization

/// One Engine.IO session: the transport it is on, its outbound packets, the upgrade in progress,
/// the heartbeat's state and the messages waiting for the layer above. On polling, packets wait
/// in a bounded queue for the next GET; once on WebSocket they go straight to the socket
/// (`EngineSocketHandler`), whose own bound is NIO's write buffer.
package final class EngineSession: Sendable {
    enum Transport: Sendable { case polling, websocket }

    let id: String
    let handshake: EngineHandshake
    private let configuration: EngineConfiguration
    private let state: Mutex<State>
    private let onClose: @Sendable (EngineSession, String) -> Void

    private struct State {
        var transport: Transport
        var upgrading = false
        /// Packets for a pending or the next GET (and those sent while an upgrade completes).
        var queue: [EnginePacket] = []
        var queuedBytes = 0
        var waiter: CheckedContinuation<Void, Never>?
        /// The WebSocket writing to the client, once the session is on it.
        var socket: EngineSocketHandler?
        /// A pending GET must be released with a noop (upgrade or close in progress).
        var releasePoll = false
        var pollPending = false
        var postPending = false
        var closed = false
        var pingSentAt: ContinuousClock.Instant?
        /// Messages read from the WebSocket, waiting for the layer above (one reader at a time).
        var inbound = CircularBuffer<EnginePacket>()
        var inboundBytes = 0
        var reading = false
    }

    init(
        id: String, transport: Transport, handshake: EngineHandshake, configuration: EngineConfiguration,
        onClose: @escaping @Sendable (EngineSession, String) -> Void
    ) {
        self.id = id
        self.handshake = handshake
        self.configuration = configuration
        self.state = Mutex(State(transport: transport))
        self.onClose = onClose
    }

    /// `0{...}`: the open packet. Upgrades are offered only to polling sessions.
    var openPacket: EnginePacket {
        let upgrades: [JSONValue] = transport == .polling ? [.string("websocket")] : []
        let body: JSONValue = .object([
            "sid": .string(id), "upgrades": .array(upgrades),
            "pingInterval": .number(Double(configuration.pingInterval.milliseconds)),
            "pingTimeout": .number(Double(configuration.pingTimeout.milliseconds)),
            "maxPayload": .number(Double(configuration.maxPayload)),
        ])
        return EnginePacket(.open, .text(body.text))
    }

    var transport: Transport { state.withLock { $0.transport } }
    var isClosed: Bool { state.withLock { $0.closed } }
    var maxQueuedBytes: Int { configuration.maxQueuedBytes }

    // MARK: Heartbeat

    /// Notes that the server pings now (the heartbeat sends it, every `pingInterval`). False
    /// when the session has closed.
    func pingSent() -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.pingSentAt = .now
            return true
        }
    }

    /// True when a ping has gone unanswered for longer than `pingTimeout`. Checked by the
    /// heartbeat and on each request, so a late timer never keeps a dead session usable.
    func timedOut() -> Bool {
        state.withLock { state in
            guard let sent = state.pingSentAt else { return false }
            return ContinuousClock.now - sent >= configuration.pingTimeout
        }
    }

    // MARK: Outbound

    /// Sends packets to the client: straight to its WebSocket, or queued for polling. A polling
    /// client that lets more than `maxQueuedBytes` pile up is disconnected instead of growing
    /// memory. False when the session is (now) closed.
    @discardableResult
    package func send(_ packets: [EnginePacket]) -> Bool {
        enum Outcome {
            case socket(EngineSocketHandler)
            case queued(CheckedContinuation<Void, Never>?)
            case closed, overflow
        }
        let outcome: Outcome = state.withLock { state in
            guard !state.closed else { return .closed }
            if let socket = state.socket { return .socket(socket) }
            let bytes = packets.reduce(0) { $0 + $1.byteCount }
            guard state.queuedBytes + bytes <= configuration.maxQueuedBytes else { return .overflow }
            state.queue.append(contentsOf: packets)
            state.queuedBytes += bytes
            defer { state.waiter = nil }
            return .queued(state.waiter)
        }
        switch outcome {
        case .socket(let socket):
            socket.enqueue(packets.map { WebSocketFrames.packet($0, allocator: Self.allocator) })
            return true
        case .queued(let waiter):
            waiter?.resume()
            return true
        case .closed:
            return false
        case .overflow:
            close(reason: "outbound buffer full (slow consumer)")
            return false
        }
    }

    private static let allocator = ByteBufferAllocator()

    /// The WebSocket to write to directly, while the session is open on one; nil otherwise (then
    /// `send` queues).
    var socket: EngineSocketHandler? { state.withLock { $0.closed ? nil : $0.socket } }

    /// A new WebSocket session's socket is ready: from now on packets go to it. Returns what was
    /// queued before, to write first.
    func attach(_ socket: EngineSocketHandler) -> [EnginePacket] {
        state.withLock { state in
            guard !state.closed else { return [] }
            state.socket = socket
            defer { state.queue = []; state.queuedBytes = 0 }
            return state.queue
        }
    }

    /// Waits for packets to write and takes all of them; `[noop]` when a pending poll must end
    /// (upgrade), nil once the session is closed.
    func take() async -> [EnginePacket]? {
        while true {
            enum Step {
                case packets([EnginePacket])
                case closed, wait
            }
            let step: Step = state.withLock { state in
                if state.releasePoll {
                    state.releasePoll = false
                    return .packets([EnginePacket(.noop)])
                }
                if state.closed { return .closed }
                guard !state.queue.isEmpty else { return .wait }
                defer { state.queue.removeAll(keepingCapacity: true); state.queuedBytes = 0 }
                return .packets(state.queue)
            }
            switch step {
            case .packets(let packets): return packets
            case .closed: return nil
            case .wait:
                await withCheckedContinuation { continuation in
                    let ready = state.withLock { state -> Bool in
                        if state.closed || state.releasePoll || !state.queue.isEmpty { return true }
                        state.waiter = continuation
                        return false
                    }
                    if ready { continuation.resume() }
                }
            }
        }
    }

    // MARK: Inbound

    /// A pong clears the heartbeat; anything else is the caller's.
    func receivedPong() {
        state.withLock { $0.pingSentAt = nil }
    }

    /// One GET at a time on a polling session (the protocol closes a session that sends two).
    func beginPoll() -> Bool {
        state.withLock { state in
            guard !state.pollPending, !state.closed else { return false }
            state.pollPending = true
            return true
        }
    }

    func endPoll() { state.withLock { $0.pollPending = false } }

    func beginPost() -> Bool {
        state.withLock { state in
            guard !state.postPending, !state.closed else { return false }
            state.postPending = true
            return true
        }
    }

    func endPost() { state.withLock { $0.postPending = false } }

    /// Polling requests are only valid while the session is on polling and not upgraded.
    var acceptsPolling: Bool { state.withLock { $0.transport == .polling && !$0.closed } }

    // MARK: Upgrade

    func beginUpgrade() -> Bool {
        state.withLock { state in
            guard state.transport == .polling, !state.upgrading, !state.closed else { return false }
            state.upgrading = true
            return true
        }
    }

    /// After the probe: a GET the client is still waiting on ends with a noop so it can pause.
    func releasePendingPoll() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard state.pollPending else { return nil }
            state.releasePoll = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// The client sent `5` on `socket`: the session moves to it. Returns the packets queued for
    /// polling that no GET took, to write first.
    func completeUpgrade(to socket: EngineSocketHandler) -> [EnginePacket] {
        let (waiter, queued) = state.withLock { state -> (CheckedContinuation<Void, Never>?, [EnginePacket]) in
            state.upgrading = false
            state.transport = .websocket
            guard !state.closed else { return (nil, []) }
            state.socket = socket
            if state.pollPending { state.releasePoll = true }
            defer { state.waiter = nil; state.queue = []; state.queuedBytes = 0 }
            return (state.waiter, state.queue)
        }
        waiter?.resume()
        return queued
    }

    func abortUpgrade() { state.withLock { $0.upgrading = false } }

    // MARK: Inbound messages (WebSocket)

    enum InboundStep { case startReader, queued, overflow }

    /// Queues a message read from the WebSocket. `startReader` when no reader is running: the
    /// caller starts one, which takes messages with `nextInbound` until none is left.
    func addInbound(_ packet: EnginePacket) -> InboundStep {
        state.withLock { state in
            guard state.inboundBytes + packet.byteCount <= configuration.maxQueuedBytes else { return .overflow }
            state.inbound.append(packet)
            state.inboundBytes += packet.byteCount
            defer { state.reading = true }
            return state.reading ? .queued : .startReader
        }
    }

    /// The next message in order, or nil (the reader ends) when none waits or the session closed.
    func nextInbound() -> EnginePacket? {
        state.withLock { state in
            guard !state.closed, let packet = state.inbound.popFirst() else {
                state.reading = false
                return nil
            }
            state.inboundBytes -= packet.byteCount
            return packet
        }
    }

    // MARK: Close

    /// Idempotent: the first call wins, wakes any writer, ends the WebSocket and tells the owner.
    func close(reason: String) {
        let (first, waiter, socket) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?, EngineSocketHandler?) in
            guard !state.closed else { return (false, nil, nil) }
            state.closed = true
            state.queue.removeAll()
            state.queuedBytes = 0
            state.inbound.removeAll()
            state.inboundBytes = 0
            defer { state.waiter = nil; state.socket = nil }
            return (true, state.waiter, state.socket)
        }
        guard first else { return }
        waiter?.resume()
        socket?.shutDown()
        onClose(self, reason)
    }
}

extension EngineSession {
    /// 20 url-safe characters from 120 random bits (session and socket ids).
    static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<15).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    }
}

extension EnginePacket {
    /// Roughly what the packet costs in memory and on the wire.
    var byteCount: Int {
        switch payload {
        case .text(let text): text.utf8.count + 1
        case .binary(let bytes): bytes.count + 1
        }
    }
}

extension Duration {
    var milliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}
