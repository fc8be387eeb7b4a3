import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// One service's replicas behind the gateway (`CHAT_SVC_URL=http://a:8082,http://b:8082`), each
/// with its own connection pool. Requests take turns among the replicas not marked down. A
/// replica that cannot be connected to is marked down and the request goes to the next one (it
/// was never sent); it is tried again after a pause that doubles up to 30 s, and is back with its
/// first answer. An Engine.IO polling session lives in one replica: the gateway learns its replica
/// from the handshake it relayed (`0{"sid":…}`); a session it did not see open (a restarted
/// gateway, another gateway replica) is looked for on each replica in turn, since one that does
/// not know the session answers at once (400, "Session ID unknown").
final class UpstreamReplicas: Sendable {
    let pools: [UpstreamPool]
    private let urls: [String]
    private let logger: Logger
    private let state: NIOLockedValueBox<State>

    static let sessionIdle = TimeAmount.minutes(2)
    static let firstPause = TimeAmount.milliseconds(500)
    static let longestPause = TimeAmount.seconds(30)

    private struct State {
        var next = 0
        var downUntil: [NIODeadline?]
        var pause: [TimeAmount]
        var sessions: [String: Session] = [:]
        var sweptAt = NIODeadline.now()
    }

    private struct Session {
        var replica: Int
        var usedAt: NIODeadline
    }

    init(pools: [UpstreamPool], urls: [String], logger: Logger) {
        precondition(!pools.isEmpty && pools.count == urls.count)
        (self.pools, self.urls, self.logger) = (pools, urls, logger)
        state = NIOLockedValueBox(
            State(downUntil: Array(repeating: nil, count: pools.count), pause: Array(repeating: Self.firstPause, count: pools.count)))
    }

    func execute(_ request: UpstreamRequest, timeout: TimeAmount, on eventLoop: any EventLoop) -> EventLoopFuture<UpstreamResponse> {
        guard pools.count > 1 else { return pools[0].execute(request, timeout: timeout, on: eventLoop) }
        return route(request.head.uri, searchable: !request.isStreamed, on: eventLoop) { replica in
            self.pools[replica].execute(request, timeout: timeout, on: eventLoop)
        } unknownSession: { response in
            guard response.head.status == .badRequest, case .buffered(let body) = response.body else { return false }
            return Self.saysUnknownSession(body)
        } opened: { response in
            guard case .buffered(let body) = response.body else { return nil }
            return Self.handshakeSession(body)
        }
    }

    /// A WebSocket upgrade: to the session's replica when it upgrades a polling session.
    func upgrade(_ head: UpstreamRequestHead, timeout: TimeAmount, on eventLoop: any EventLoop) -> EventLoopFuture<UpgradeAnswer> {
        guard pools.count > 1 else { return pools[0].upgrade(head, timeout: timeout, on: eventLoop) }
        return route(head.uri, searchable: true, on: eventLoop) { replica in
            self.pools[replica].upgrade(head, timeout: timeout, on: eventLoop)
        } unknownSession: { answer in
            guard answer.head.status == .badRequest, Self.saysUnknownSession(answer.body) else { return false }
            // Looked for elsewhere: this replica's connection is not needed.
            answer.channel.close(promise: nil)
            return true
        } opened: { _ in
            nil
        }
    }

    func shutdown() {
        for pool in pools { pool.shutdown() }
    }

    /// Sends to the session's replica, or looks for it, or takes the next replica's turn.
    private func route<Answer: Sendable>(
        _ uri: String, searchable: Bool, on eventLoop: any EventLoop, send: @escaping @Sendable (Int) -> EventLoopFuture<Answer>,
        unknownSession: @escaping @Sendable (Answer) -> Bool, opened: @escaping @Sendable (Answer) -> String?
    ) -> EventLoopFuture<Answer> {
        guard let sid = Self.session(in: uri) else {
            return balanced(attempts: pools.count, on: eventLoop, send: send).map { replica, answer in
                if let opened = opened(answer) { self.pin(opened, to: replica) }
                return answer
            }
        }
        if let replica = pinned(sid) { return attempt(replica, on: eventLoop, send: send) }
        guard searchable else { return balanced(attempts: 1, on: eventLoop, send: send).map(\.1) }
        return search(sid, from: 0, on: eventLoop, send: send, unknownSession: unknownSession)
    }

    private func balanced<Answer: Sendable>(
        attempts: Int, on eventLoop: any EventLoop, send: @escaping @Sendable (Int) -> EventLoopFuture<Answer>
    ) -> EventLoopFuture<(Int, Answer)> {
        let replica = nextReplica()
        return attempt(replica, on: eventLoop, send: send).map { (replica, $0) }.flatMapError { error in
            guard case UpstreamError.unreachable = error, attempts > 1 else { return eventLoop.makeFailedFuture(error) }
            return self.balanced(attempts: attempts - 1, on: eventLoop, send: send)
        }
    }

    private func search<Answer: Sendable>(
        _ sid: String, from replica: Int, on eventLoop: any EventLoop, send: @escaping @Sendable (Int) -> EventLoopFuture<Answer>,
        unknownSession: @escaping @Sendable (Answer) -> Bool
    ) -> EventLoopFuture<Answer> {
        let last = replica == pools.count - 1
        return attempt(replica, on: eventLoop, send: send).flatMap { answer in
            // The last replica's answer stands, whatever it says.
            if last { return eventLoop.makeSucceededFuture(answer) }
            guard unknownSession(answer) else {
                self.pin(sid, to: replica)
                return eventLoop.makeSucceededFuture(answer)
            }
            return self.search(sid, from: replica + 1, on: eventLoop, send: send, unknownSession: unknownSession)
        }.flatMapError { error in
            guard case UpstreamError.unreachable = error, !last else { return eventLoop.makeFailedFuture(error) }
            return self.search(sid, from: replica + 1, on: eventLoop, send: send, unknownSession: unknownSession)
        }
    }

    /// One replica's answer, its health noted.
    private func attempt<Answer: Sendable>(
        _ replica: Int, on eventLoop: any EventLoop, send: @Sendable (Int) -> EventLoopFuture<Answer>
    ) -> EventLoopFuture<Answer> {
        send(replica).map { answer in
            self.answered(replica)
            return answer
        }.flatMapErrorThrowing { error in
            if case UpstreamError.unreachable = error { self.unreachable(replica) }
            throw error
        }
    }

    /// The next replica not marked down (any, in turn, when all are). The front loops take turns here too.
    func nextReplica() -> Int {
        let now = NIODeadline.now()
        return state.withLockedValue { state in
            let count = pools.count
            let start = state.next
            let replica = (0..<count).map { (start + $0) % count }.first { (state.downUntil[$0] ?? now) <= now } ?? start % count
            state.next = (replica + 1) % count
            return replica
        }
    }

    /// A connection to `replica` could not be opened: out for a pause that doubles each time.
    func unreachable(_ replica: Int) {
        let pause = state.withLockedValue { state in
            let pause = state.pause[replica]
            state.downUntil[replica] = .now() + pause
            state.pause[replica] = min(pause * 2, Self.longestPause)
            return pause
        }
        logger.warning(
            "upstream replica unreachable; taken out", metadata: ["upstream": .string(urls[replica]), "retry_ms": "\(pause.nanoseconds / 1_000_000)"])
    }

    /// `replica` answered (or took a connection): back in, its pause reset.
    func answered(_ replica: Int) {
        let wasDown = state.withLockedValue { state in
            defer { (state.downUntil[replica], state.pause[replica]) = (nil, Self.firstPause) }
            return state.downUntil[replica] != nil
        }
        if wasDown { logger.notice("upstream replica answers again; put back", metadata: ["upstream": .string(urls[replica])]) }
    }

    private func pin(_ sid: String, to replica: Int) {
        let now = NIODeadline.now()
        state.withLockedValue { state in
            state.sessions[sid] = Session(replica: replica, usedAt: now)
            // Sessions upgraded to WebSocket (or gone) stop polling: forgotten once idle.
            guard now - state.sweptAt > .seconds(30) else { return }
            state.sweptAt = now
            state.sessions = state.sessions.filter { now - $0.value.usedAt < Self.sessionIdle }
        }
    }

    private func pinned(_ sid: String) -> Int? {
        let now = NIODeadline.now()
        return state.withLockedValue { state in
            state.sessions[sid]?.usedAt = now
            return state.sessions[sid]?.replica
        }
    }

    /// The `sid` of an Engine.IO request (`/socket.io/?…&sid=…`).
    static func session(in uri: String) -> String? {
        guard uri.hasPrefix("/socket.io"), let query = uri.firstIndex(of: "?") else { return nil }
        for pair in uri[uri.index(after: query)...].split(separator: "&") where pair.hasPrefix("sid=") {
            let sid = pair.dropFirst(4)
            return sid.isEmpty || sid.count > 64 ? nil : String(sid)
        }
        return nil
    }

    /// The session an Engine.IO handshake answer opened: `0{"sid":"…",…}`.
    static func handshakeSession(_ body: ByteBuffer) -> String? {
        guard body.readableBytes < 1024, body.readableBytesView.first == UInt8(ascii: "0"),
            let object = try? JSONSerialization.jsonObject(with: Data(body.readableBytesView.dropFirst())) as? [String: Any]
        else { return nil }
        return object["sid"] as? String
    }

    private static func saysUnknownSession(_ body: ByteBuffer) -> Bool {
        String(buffer: body).contains("Session ID unknown")
    }
}

extension UpstreamRequest {
    var isStreamed: Bool {
        if case .stream = body { return true }
        return false
    }
}
