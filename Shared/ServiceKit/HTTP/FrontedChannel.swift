import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// Hummingbird's HTTP/1 connection with a handler of ours in front: the `front` handler goes
/// right after HTTP decoding, ahead of the upgrade handler and of the conversion to Hummingbird's
/// types, and may answer a request itself or take the whole connection over (the gateway's
/// direct path and socket splice, chat-svc's WebSocket transport). Placed `.beforeDecoding`, it
/// reads the connection's bytes itself (the gateway's and the services' byte fronts) and, when it
/// hands over, puts its successor after the decoder (or leaves Hummingbird's channel to it) and
/// leaves. `FrontedHTTP1Channel` uses Hummingbird's WebSocket-upgrade channel for its lazy setup:
/// its side of a connection starts with the first request the front passes on (by completing the
/// promise it is given), so until then the pipeline holds only NIO's HTTP handlers, which a
/// takeover can remove. It upgrades nothing itself. A service's byte front, which never takes a
/// connection over, stands before Hummingbird's plain HTTP/1 channel (`FrontedChannel<HTTP1Channel>`).
package typealias FrontedHTTP1Channel = FrontedChannel<HTTP1WebSocketUpgradeChannel>

package struct FrontedChannel<Inner: ServerChildChannel>: ServerChildChannel {
    package struct Value: ServerChildChannelValue {
        let inner: Inner.Value
        let routerStarted: EventLoopFuture<Void>
        package var channel: any Channel { inner.channel }
    }

    package enum FrontPosition: Sendable {
        case afterDecoding
        case beforeDecoding
    }

    let inner: Inner
    let position: FrontPosition
    let front: @Sendable (any Channel, EventLoopPromise<Void>) -> any ChannelHandler
    /// What the inner channel's side needs when no request went its way (closing what it set up).
    var unused: @Sendable (Inner.Value) async -> Void = { _ in }

    package func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let routerStarted = channel.eventLoop.makePromise(of: Void.self)
            let pipeline = channel.pipeline.syncOperations
            switch position {
            case .afterDecoding:
                let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
                try pipeline.addHandler(front(channel, routerStarted), position: .after(decoder))
            case .beforeDecoding:
                try pipeline.addHandler(front(channel, routerStarted), position: .first)
            }
            return Value(inner: value, routerStarted: routerStarted.futureResult)
        }
    }

    package func handle(value: Value, logger: Logger) async {
        // Failed when the connection closed (or was taken over) before any request went Hummingbird's way.
        guard (try? await value.routerStarted.get()) != nil else { return await unused(value.inner) }
        await inner.handle(value: value.inner, logger: logger)
    }
}

extension FrontedChannel where Inner == HTTP1WebSocketUpgradeChannel {
    /// `front` makes the handler of one connection; it completes the promise when it hands the
    /// first request to Hummingbird, and the promise fails when the connection ends before that.
    /// `built` is given the child channel once Hummingbird has made it (to set up connections
    /// that did not come through its listener: the gateway's front loops hand theirs back).
    package static func server(
        position: FrontPosition = .afterDecoding, front: @escaping @Sendable (any Channel, EventLoopPromise<Void>) -> any ChannelHandler,
        built: @escaping @Sendable (FrontedHTTP1Channel) -> Void = { _ in }
    ) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            let channel = FrontedHTTP1Channel(
                inner: HTTP1WebSocketUpgradeChannel(responder: responder, configuration: .init()) { _, _, _ in .dontUpgrade },
                position: position, front: front
            )
            built(channel)
            return channel
        }
    }

    /// Takes Hummingbird's upgrade handler out of a connection the front is taking over (it
    /// stands after the front and would wait for a request that never comes its way).
    package static func removeUpgrader(from pipeline: ChannelPipeline.SynchronousOperations) {
        if let upgrader = try? pipeline.handler(type: NIOTypedHTTPServerUpgradeHandler<HTTP1WebSocketUpgradeChannel.UpgradeResult>.self) {
            pipeline.removeHandler(upgrader, promise: nil)
        }
    }
}

extension FrontedChannel where Inner == HTTP1Channel {
    /// Hummingbird's plain HTTP/1 channel behind a front placed before decoding (a service's byte
    /// front): a request the front hands over is answered by that channel as without the front,
    /// a malformed one too (400, and the connection closed).
    package static func server(front: @escaping @Sendable (any Channel, EventLoopPromise<Void>) -> any ChannelHandler) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            // Its async channel, made when the connection was set up, must be closed by its owner.
            FrontedChannel(inner: HTTP1Channel(responder: responder), position: .beforeDecoding, front: front) { channel in
                try? await channel.executeThenClose { _, _ in }
            }
        }
    }
}
