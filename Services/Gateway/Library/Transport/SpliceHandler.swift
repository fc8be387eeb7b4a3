import NIOCore

/// One side of a byte splice between two connections on one event loop (a WebSocket after its
/// 101): what one side reads, the other writes. A side reads only while its partner can write,
/// so a slow reader slows the sender instead of filling memory.
final class SpliceHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer

    private var partner: SpliceHandler?
    private var context: ChannelHandlerContext?
    private var readPending = false

    static func pair() -> (SpliceHandler, SpliceHandler) {
        let (first, second) = (SpliceHandler(), SpliceHandler())
        first.partner = second
        second.partner = first
        return (first, second)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        // Ends the reference cycle of the pair.
        self.context = nil
        partner = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        partner?.context?.write(data, promise: nil)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        partner?.context?.flush()
    }

    func channelInactive(context: ChannelHandlerContext) {
        partner?.context?.close(promise: nil)
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed {
            // The peer is done sending: so are we, towards the other side.
            partner?.context?.close(mode: .output, promise: nil)
        } else if event is ChannelShouldQuiesceEvent {
            // Graceful shutdown: a WebSocket cannot be handed over; its client reconnects.
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, let partner, partner.readPending, let partnerContext = partner.context {
            partner.readPending = false
            partnerContext.read()
        }
        context.fireChannelWritabilityChanged()
    }

    func read(context: ChannelHandlerContext) {
        if partner?.context?.channel.isWritable ?? false {
            context.read()
        } else {
            readPending = true
        }
    }
}
