import NIOCore

/// Closes a client connection that has had nothing under way for `timeout`: one timer per
/// connection, armed when it becomes idle and re-armed only while it stays so (a timer per
/// request would cost more than the requests).
final class IdleTimer {
    private let timeout: TimeAmount
    /// Asked when the timer fires: busy connections are left alone until they are idle again.
    private let isIdle: () -> Bool
    private var since = NIODeadline.now()
    private var scheduled: Scheduled<Void>?
    private var stopped = false

    init(timeout: TimeAmount, isIdle: @escaping () -> Bool) {
        self.timeout = timeout
        self.isIdle = isIdle
    }

    func becameIdle(context: ChannelHandlerContext) {
        guard !stopped else { return }
        since = .now()
        if scheduled == nil { arm(at: since + timeout, context: context) }
    }

    func stop() {
        stopped = true
        scheduled?.cancel()
        scheduled = nil
    }

    private func arm(at deadline: NIODeadline, context: ChannelHandlerContext) {
        scheduled = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [weak self] in
            self?.fired(context: context)
        }
    }

    private func fired(context: ChannelHandlerContext) {
        scheduled = nil
        guard !stopped, isIdle() else { return }
        let due = since + timeout
        if due <= .now() {
            context.close(promise: nil)
        } else {
            arm(at: due, context: context)
        }
    }
}
