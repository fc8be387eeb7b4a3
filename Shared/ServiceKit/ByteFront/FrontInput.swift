import NIOCore

/// What a byte front has read and not yet taken (a head's beginning, a body, requests that wait
/// behind the one being answered), whether a read waits for room, and whether graceful shutdown
/// waits for the answer under way: the gateway's front and a service's keep it alike.
package struct FrontInput {
    /// Bytes of requests beyond the one being answered that are kept before reading pauses.
    package static let maxAhead = 64 << 10

    package var received: ByteBuffer?
    private var readPending = false
    private var closesAfterAnswer = false

    package init() {}

    package mutating func append(_ bytes: ByteBuffer) {
        if received == nil {
            received = bytes
        } else {
            var bytes = bytes
            received!.writeBuffer(&bytes)
        }
    }

    /// Reading goes on while an answer is awaited (clients that wait for it send nothing
    /// meanwhile); a pipelining client is read ahead up to `maxAhead`, then the read waits.
    package mutating func read(context: ChannelHandlerContext, busy: Bool) {
        if busy, (received?.readableBytes ?? 0) >= Self.maxAhead {
            readPending = true
        } else {
            context.read()
        }
    }

    /// The read that waited, once the front may take more.
    package mutating func resume(context: ChannelHandlerContext) {
        guard readPending else { return }
        readPending = false
        context.read()
    }

    /// What is left, and a read that waited, to the handlers after the front (which take the
    /// connection from here).
    package mutating func passOn(context: ChannelHandlerContext) {
        if let bytes = received {
            received = nil
            context.fireChannelRead(NIOAny(bytes))
            context.fireChannelReadComplete()
        }
        resume(context: context)
    }

    /// Graceful shutdown closes idle connections (`ChannelShouldQuiesceEvent`); a busy one is not
    /// idle until its answer is out, and closes then (`answered`).
    package mutating func quiesce(context: ChannelHandlerContext, busy: Bool) {
        if busy {
            closesAfterAnswer = true
        } else {
            context.close(promise: nil)
        }
    }

    /// After an answer is out: false when the connection closed for a shutdown that waited for it.
    package func answered(context: ChannelHandlerContext) -> Bool {
        guard closesAfterAnswer else { return true }
        context.close(promise: nil)
        return false
    }
}
