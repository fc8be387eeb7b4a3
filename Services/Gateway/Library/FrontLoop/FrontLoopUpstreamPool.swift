import Glibc
import NIOCore
import NIOPosix
import ServiceKit

/// One front loop's keep-alive connections to one service: at most `limit`, the most recently
/// used idle one first, else a new one, else the request waits for one to be released.
/// Connections are opened by NIO (its resolver and connect timeout) and then taken off its
/// channel: the loop reads and writes the socket itself.
final class FrontLoopUpstreamPool {
    /// A connection, or nil when none could be opened; `reused`: it has served requests before.
    typealias Waiter = (FrontLoopUpstream?, _ reused: Bool) -> Void

    let host: String
    let port: Int
    /// The `Host` every request carries.
    let authority: String
    private let limit: Int
    private unowned let loop: FrontLoop
    private var idle: [FrontLoopUpstream] = []
    private var open = 0
    private var waiters = CircularBuffer<Waiter>()

    init(host: String, port: Int, limit: Int, loop: FrontLoop) {
        self.host = host
        self.port = port
        self.authority = "\(host):\(port)"
        self.limit = max(1, limit)
        self.loop = loop
    }

    /// `fresh`: a new connection (a request retried after a reused one failed).
    func acquire(fresh: Bool = false, _ waiter: @escaping Waiter) {
        if !fresh, let connection = idle.popLast() { return waiter(connection, true) }
        if open < limit {
            open += 1
            return connect(waiter)
        }
        waiters.append(waiter)
    }

    func release(_ connection: FrontLoopUpstream) {
        if let waiter = waiters.popFirst() { return waiter(connection, true) }
        idle.append(connection)
    }

    /// A connection closed (the service's keep-alive ended, or it failed).
    func closed(_ connection: FrontLoopUpstream) {
        open -= 1
        idle.removeAll { $0 === connection }
        if let waiter = waiters.popFirst() {
            open += 1
            connect(waiter)
        }
    }

    func closeAll() {
        for connection in idle { connection.close() }
    }

    private func connect(_ waiter: @escaping Waiter) {
        let loop = self.loop
        let pool = UnsafeTransfer(Unmanaged.passUnretained(self))
        let done = UnsafeTransfer(waiter)
        ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(2))
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connect(host: host, port: port)
            .whenComplete { result in
                var descriptor: Int32 = -1
                if case .success(let channel) = result {
                    descriptor = FrontLoops.duplicateDescriptor(of: channel) ?? -1
                    channel.close(promise: nil)
                }
                let taken = loop.execute { [descriptor] in
                    let pool = pool.value.takeUnretainedValue()
                    guard descriptor >= 0 else {
                        pool.open -= 1
                        return done.value(nil, false)
                    }
                    done.value(FrontLoopUpstream(descriptor: descriptor, loop: loop, pool: pool), false)
                }
                // The loop ended meanwhile (its client went, then graceful shutdown): nobody waits.
                if !taken, descriptor >= 0 { close(descriptor) }
            }
    }
}

/// A value confined to one front loop's thread that passes through another thread untouched.
struct UnsafeTransfer<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
