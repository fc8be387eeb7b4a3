import Foundation
import Synchronization

/// One Engine.IO session: its outbound queue (bounded), the transport it is on, the upgrade in
/// progress, and the heartbeat. Packets are taken by whoever currently writes to the client: a
/// pending long-polling GET or the WebSocket writer.
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
        var queue: [EnginePacket] = []
        var queuedBytes = 0
        var waiter: CheckedContinuation<Void, Never>?
        /// A pending GET must be released with a noop (upgrade or close in progress).
        var releasePoll = false
        var pollPending = false
        var postPending = false
        var closed = false
        var pingSentAt: ContinuousClock.Instant?
        var heartbeat: Task<Void, Never>?
    }

    init(id: String, transport: Transport, handshake: EngineHandshake, configuration: EngineConfiguration,
         onClose: @escaping @Sendable (EngineSession, String) -> Void) {
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

    /// Starts the server-driven ping loop: a ping every `pingInterval`, closed when no pong came
    /// within `pingTimeout`.
    func startHeartbeat() {
        let task = Task { [weak self, configuration] in
            while !Task.isCancelled {
                try? await Task.sleep(for: configuration.pingInterval)
                guard let self, !self.isClosed else { return }
                self.state.withLock { $0.pingSentAt = .now }
                self.send([EnginePacket(.ping)])
                try? await Task.sleep(for: configuration.pingTimeout)
                if self.timedOut() { self.close(reason: "ping timeout"); return }
            }
        }
        state.withLock { $0.heartbeat = task }
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

    /// Queues packets for the client. A client that lets more than `maxQueuedBytes` pile up is
    /// disconnected instead of growing memory. False when the session is (now) closed.
    @discardableResult
    package func send(_ packets: [EnginePacket]) -> Bool {
        enum Outcome { case queued(CheckedContinuation<Void, Never>?), closed, overflow }
        let outcome: Outcome = state.withLock { state in
            guard !state.closed else { return .closed }
            let bytes = packets.reduce(0) { $0 + $1.byteCount }
            guard state.queuedBytes + bytes <= configuration.maxQueuedBytes else { return .overflow }
            state.queue.append(contentsOf: packets)
            state.queuedBytes += bytes
            defer { state.waiter = nil }
            return .queued(state.waiter)
        }
        switch outcome {
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

    /// Waits for packets to write and takes all of them; `[noop]` when a pending poll must end
    /// (upgrade), nil once the session is closed.
    func take() async -> [EnginePacket]? {
        while true {
            enum Step { case packets([EnginePacket]), closed, wait }
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

    func completeUpgrade() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.upgrading = false
            state.transport = .websocket
            if state.pollPending { state.releasePoll = true }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    func abortUpgrade() { state.withLock { $0.upgrading = false } }

    // MARK: Close

    /// Idempotent: the first call wins, wakes any writer, stops the heartbeat and tells the owner.
    func close(reason: String) {
        let (first, waiter, heartbeat) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?, Task<Void, Never>?) in
            guard !state.closed else { return (false, nil, nil) }
            state.closed = true
            state.queue.removeAll()
            state.queuedBytes = 0
            defer { state.waiter = nil; state.heartbeat = nil }
            return (true, state.waiter, state.heartbeat)
        }
        guard first else { return }
        heartbeat?.cancel()
        waiter?.resume()
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
