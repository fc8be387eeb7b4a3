import CEventPoll
import Contracts
import Foundation
import Glibc
import NIOConcurrencyHelpers
import NIOCore

/// What waits on a front loop for its descriptor: a client's connection or a service's.
/// Called on the loop's thread only.
protocol FrontLoopSocket: AnyObject {
    /// Readable, or hung up or failed (the next read says which).
    func readable()
    func writable()
    /// About once a second: deadlines.
    func sweep(now: ContinuousClock.Instant)
    /// Graceful shutdown: close when idle, else after the answer under way.
    func quiesce()
}

/// One thread waiting on epoll for the sockets of the gateway's plain path (see `FrontLoops`):
/// each readiness runs its socket's handler at once, with no channel pipeline, future or task
/// between the system call and the forwarding. Other threads reach it through `execute`.
final class FrontLoop: @unchecked Sendable {
    private struct Entry {
        var generation: UInt32
        var socket: any FrontLoopSocket
        /// What epoll watches for it now: a change costs a system call, so only changes are made.
        var events: UInt32
    }

    /// The wake-up descriptor's token (real tokens carry a descriptor, which is never -1).
    private static let wakeToken = UInt64.max
    private static let sweepInterval = Duration.seconds(1)

    /// Jobs from other threads; `ended` once the loop has stopped taking them (its wake-up
    /// descriptor closes then, so it is written only under this lock, while not ended).
    private struct Jobs {
        var pending: [@Sendable () -> Void] = []
        var ended = false
    }

    private let poll: Int32
    private let wake: Int32
    private let jobs = NIOLockedValueBox(Jobs())
    // Touched on the loop's thread only. Indexed by descriptor (small numbers, reused by the
    // kernel): every readiness and every change of interest looks one up, without hashing.
    private var sockets: [Entry?] = []
    private var generation: UInt32 = 0
    private var nextSweep = ContinuousClock.now
    /// The time as of the loop's last wake-up, read once for all it then does, as nginx reads
    /// its time once per turn of its loop: a request's start, its end for the metrics, its
    /// deadlines and the policy's clock (rate limits, cached apps) are this. The clock was read
    /// seven times per forwarded request before (a vDSO call each, 1.6% of the gateway's samples),
    /// and a turn's work for one request is a few microseconds.
    private(set) var now = ContinuousClock.now
    private var quiescing = false
    private var stopped = false
    /// The pools of services' connections this loop's clients use, one per replica.
    var upstreams: [ServiceName: [FrontLoopUpstreamPool]] = [:]
    /// The policy's tables, app copies and ids of this loop's own.
    let local: GatewayPolicy.Local

    init(name: String, policy: GatewayPolicy) {
        local = GatewayPolicy.Local(policy)
        poll = epoll_create1(Int32(EPOLL_CLOEXEC))
        wake = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        precondition(poll >= 0 && wake >= 0, "epoll or eventfd unavailable")
        _ = glint_epoll_ctl(poll, EPOLL_CTL_ADD, wake, EPOLLIN.rawValue, Self.wakeToken)
        let thread = Thread { [self] in
            // Foundation's `Thread.name` does not reach the kernel: without this, `top -H`, `perf`
            // and `/proc/…/task` show the loops under the name of the NIO thread that started them.
            glint_name_thread(name)
            run()
        }
        thread.start()
    }

    /// Runs `job` on the loop's thread; false, and the job never runs, once the loop has ended
    /// (graceful shutdown): what the job would have taken over is the caller's to close.
    @discardableResult
    func execute(_ job: @escaping @Sendable () -> Void) -> Bool {
        jobs.withLockedValue { jobs in
            guard !jobs.ended else { return false }
            jobs.pending.append(job)
            if jobs.pending.count == 1 { _ = eventfd_write(wake, 1) }
            return true
        }
    }

    /// Watches `descriptor` for reading; the loop closes nothing itself.
    func watch(_ descriptor: Int32, _ socket: any FrontLoopSocket) {
        generation &+= 1
        if sockets.count <= Int(descriptor) { sockets += repeatElement(nil, count: Int(descriptor) + 1 - sockets.count) }
        sockets[Int(descriptor)] = Entry(generation: generation, socket: socket, events: EPOLLIN.rawValue)
        _ = glint_epoll_ctl(poll, EPOLL_CTL_ADD, descriptor, EPOLLIN.rawValue, Self.token(descriptor, generation))
        // A connection moved during graceful shutdown: its request is answered, then it closes.
        if quiescing { socket.quiesce() }
    }

    /// What `descriptor` is watched for.
    func interest(_ descriptor: Int32, read: Bool, write: Bool) {
        let events = (read ? EPOLLIN.rawValue : 0) | (write ? EPOLLOUT.rawValue : 0)
        guard let entry = entry(descriptor), entry.events != events else { return }
        sockets[Int(descriptor)]?.events = events
        _ = glint_epoll_ctl(poll, EPOLL_CTL_MOD, descriptor, events, Self.token(descriptor, entry.generation))
    }

    /// Before the descriptor is closed or handed on.
    func forget(_ descriptor: Int32) {
        guard entry(descriptor) != nil else { return }
        sockets[Int(descriptor)] = nil
        _ = glint_epoll_ctl(poll, EPOLL_CTL_DEL, descriptor, 0, 0)
    }

    /// Graceful shutdown: every socket closes when idle; the thread ends once none is left.
    func quiesce() {
        execute { [self] in
            quiescing = true
            for entry in sockets.compactMap({ $0 }) { entry.socket.quiesce() }
        }
    }

    private func entry(_ descriptor: Int32) -> Entry? {
        Int(descriptor) < sockets.count ? sockets[Int(descriptor)] : nil
    }

    private static func token(_ descriptor: Int32, _ generation: UInt32) -> UInt64 {
        UInt64(generation) << 32 | UInt64(UInt32(bitPattern: descriptor))
    }

    private func run() {
        let flags = UnsafeMutablePointer<UInt32>.allocate(capacity: 64)
        let data = UnsafeMutablePointer<UInt64>.allocate(capacity: 64)
        defer {
            flags.deallocate()
            data.deallocate()
        }
        while !stopped {
            let count = glint_epoll_wait(poll, flags, data, 64, 1000)
            if count < 0, errno != EINTR { break }
            now = .now
            for index in 0..<max(0, Int(count)) {
                if data[index] == Self.wakeToken {
                    runJobs()
                    continue
                }
                // A socket closed by an earlier event of this batch, or its descriptor reused since.
                let descriptor = Int32(bitPattern: UInt32(truncatingIfNeeded: data[index]))
                guard let entry = entry(descriptor), entry.generation == UInt32(data[index] >> 32) else { continue }
                if flags[index] & EPOLLOUT.rawValue != 0 { entry.socket.writable() }
                if flags[index] & (EPOLLIN.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0,
                    self.entry(descriptor)?.generation == entry.generation
                {
                    entry.socket.readable()
                }
            }
            if now >= nextSweep {
                nextSweep = now + Self.sweepInterval
                for entry in sockets.compactMap({ $0 }) { entry.socket.sweep(now: now) }
            }
            // A job still pending (a connection moved meanwhile) runs first: the loop ends
            // only with none, and takes none after.
            if quiescing, sockets.allSatisfy({ $0 == nil || $0?.socket is FrontLoopUpstream }),
                jobs.withLockedValue({ jobs in
                    jobs.ended = jobs.pending.isEmpty
                    return jobs.ended
                })
            {
                for pool in upstreams.values.joined() { pool.closeAll() }
                stopped = true
            }
        }
        close(wake)
        close(poll)
    }

    private func runJobs() {
        var value: eventfd_t = 0
        _ = eventfd_read(wake, &value)
        let pending = jobs.withLockedValue { jobs in
            defer { jobs.pending.removeAll(keepingCapacity: true) }
            return jobs.pending
        }
        for job in pending { job() }
    }
}
