import Contracts
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdWSClient
import HummingbirdWebSocket
import Logging
import NIOCore
import ServiceKit

/// `/socket.io/` over WebSocket when the direct path cannot splice it (a key not yet resolved,
/// an upgrade after requests Hummingbird answered): after the key and rate checks, the gateway
/// opens its own WebSocket to chat-svc (with the internal headers) and relays messages both
/// ways, one at a time, so nothing is buffered beyond a message. Long-polling goes through the
/// HTTP proxy.
struct SocketPassthrough: Sendable {
    let proxy: ProxyController
    let common: CommonConfiguration
    let logger: Logger
    /// Engine.IO's `maxPayload` (1 MB) plus framing.
    static let maxMessageBytes = 1 << 20 + 1024

    /// Hummingbird's HTTP/1 server with WebSocket upgrades, the direct path in front (`GatewayChannel`).
    func serverBuilder(direct: @escaping @Sendable (EventLoopPromise<Void>) -> DirectForwardHandler) -> HTTPServerBuilder {
        let configuration = HTTP1WebSocketUpgradeChannel.Configuration(ws: .init(maxFrameSize: Self.maxMessageBytes, autoPing: .disabled))
        return HTTPServerBuilder { responder in
            GatewayChannel(inner: HTTP1WebSocketUpgradeChannel(responder: responder, configuration: configuration, shouldUpgrade: upgrade), direct: direct)
        }
    }

    /// A WebSocket on `/socket.io/` that passes the key and rate checks is relayed to chat-svc.
    @Sendable private func upgrade(
        _ head: HTTPRequest, _ channel: any Channel, _: Logger
    ) async -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>> {
        guard let path = head.path, Self.isSocketIOWebSocket(path) else { return .dontUpgrade }
        guard case .admitted(let app, let clientIP) = await proxy.admitWebSocket(head, remoteAddress: channel.remoteAddress) else {
            return .dontUpgrade
        }
        let upstreamURL = "ws" + common.url(of: .chat).dropFirst("http".count) + path
        var headers: HTTPFields = [:]
        if let authorization = head.headerFields[.authorization] { headers[.authorization] = authorization }
        Self.set(&headers, InternalHeader.secret, common.internalSecret)
        Self.set(&headers, InternalHeader.clientIP, clientIP)
        Self.set(&headers, InternalHeader.requestID, head.headerFields[values: HTTPField.Name(InternalHeader.requestID)!].first ?? ObjectID.generate())
        if let app { Self.set(&headers, InternalHeader.appID, app.appID) }
        let upstreamHeaders = headers
        return .upgrade([:]) { inbound, outbound, _ in
            await relay(client: (inbound, outbound), to: upstreamURL, headers: upstreamHeaders)
        }
    }

    /// Engine.IO's WebSocket transport: `/socket.io/…?transport=websocket`.
    static func isSocketIOWebSocket(_ target: String) -> Bool {
        let uri = URI(target)
        return uri.path.hasPrefix("/socket.io") && uri.queryParameters["transport"] == "websocket"
    }

    private static func set(_ headers: inout HTTPFields, _ name: String, _ value: String) {
        if let name = HTTPField.Name(name) { headers[name] = value }
    }

    private func relay(client: (inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter), to url: String, headers: HTTPFields) async {
        do {
            try await WebSocketClient.connect(
                url: url, configuration: .init(maxFrameSize: Self.maxMessageBytes, additionalHeaders: headers), logger: logger
            ) { upstreamInbound, upstreamOutbound, _ in
                await withTaskGroup(of: Void.self) { group in
                    group.addTask {
                        await Self.pipe(upstreamInbound, to: client.outbound)
                        try? await client.outbound.close(.normalClosure, reason: nil)
                    }
                    await Self.pipe(client.inbound, to: upstreamOutbound)
                    try? await upstreamOutbound.close(.normalClosure, reason: nil)
                    await group.waitForAll()
                }
            }
        } catch {
            logger.info("socket.io upstream refused or failed", metadata: ["error": "\(error)"])
        }
        try? await client.outbound.close(.goingAway, reason: nil)
    }

    private static func pipe(_ inbound: WebSocketInboundStream, to outbound: WebSocketOutboundWriter) async {
        do {
            for try await message in inbound.messages(maxSize: maxMessageBytes) {
                switch message {
                case .text(let text): try await outbound.write(.text(text))
                case .binary(let buffer): try await outbound.write(.binary(buffer))
                }
            }
        } catch {
            // One side went away; the caller closes the other.
        }
    }
}
