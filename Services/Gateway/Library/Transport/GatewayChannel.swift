import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// Hummingbird's HTTP/1 + WebSocket-upgrade connection with the direct path in front: the
/// `DirectForwardHandler` goes right after HTTP decoding, ahead of the upgrade handler and of the
/// conversion to Hummingbird's types, so a forwarded request is parsed once into NIO's head and
/// its answer written without conversions. Hummingbird sets up its side of a connection when the
/// first request reaches it, so a connection whose requests all went the direct path is left to
/// the direct path alone.
struct GatewayChannel: ServerChildChannel {
    struct Value: ServerChildChannelValue {
        let inner: HTTP1WebSocketUpgradeChannel.Value
        let routerStarted: EventLoopFuture<Void>
        var channel: any Channel { inner.channel }
    }

    let inner: HTTP1WebSocketUpgradeChannel
    let direct: @Sendable (EventLoopPromise<Void>) -> DirectForwardHandler

    /// Hummingbird's WebSocket-upgrade channel is used for its lazy setup (its side of a
    /// connection starts with the first request that reaches it, so a splice can still take the
    /// connection over); it upgrades nothing itself: `/socket.io/` sockets are the direct path's,
    /// and any other upgrade is refused.
    static func server(direct: @escaping @Sendable (EventLoopPromise<Void>) -> DirectForwardHandler) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            GatewayChannel(
                inner: HTTP1WebSocketUpgradeChannel(responder: responder, configuration: .init()) { _, _, _ in .dontUpgrade },
                direct: direct
            )
        }
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let routerStarted = channel.eventLoop.makePromise(of: Void.self)
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(direct(routerStarted), position: .after(decoder))
            return Value(inner: value, routerStarted: routerStarted.futureResult)
        }
    }

    func handle(value: Value, logger: Logger) async {
        // Failed when the connection closed before any request went Hummingbird's way.
        guard (try? await value.routerStarted.get()) != nil else { return }
        await inner.handle(value: value.inner, logger: logger)
    }
}
