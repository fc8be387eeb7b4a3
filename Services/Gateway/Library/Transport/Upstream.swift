import Contracts
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import ServiceKit

/// How the gateway reaches services: live over its own keep-alive connection pools, in tests any
/// closure. `forward` completes on the event loop it is given.
struct Upstream: Sendable {
    var forward: @Sendable (ServiceName, UpstreamRequest, any EventLoop) -> EventLoopFuture<UpstreamResponse>
    var health: @Sendable (ServiceName) async -> ServiceHealth
    /// A WebSocket upgrade request sent on a connection of its own, for the gateway to splice.
    var upgrade: @Sendable (ServiceName, UpstreamRequestHead, any EventLoop) -> EventLoopFuture<UpgradeAnswer> = { _, _, eventLoop in
        eventLoop.makeFailedFuture(UpstreamError.closedBeforeAnswer)
    }
    /// Hands a client's connection (its descriptor) with the request read from it to the service
    /// (`SocketHandoff`): true when the service took it. Nil when the suite is not set up for it.
    var handOver: (@Sendable (ServiceName, Int32, [UInt8]) -> Bool)?

    /// From async code: on the event loop the caller runs on, if any.
    func forward(_ service: ServiceName, _ request: UpstreamRequest) async throws -> UpstreamResponse {
        try await forward(service, request, MultiThreadedEventLoopGroup.currentEventLoop ?? MultiThreadedEventLoopGroup.singleton.next()).get()
    }

    /// Health is asked of each service's own `/health` with a short deadline. Only chat-svc's
    /// sockets are handed over, when `handoff` is given.
    static func live(pools: UpstreamPools, timeout: TimeAmount, handoff: SocketHandoffSender? = nil) -> Upstream {
        let forward: @Sendable (ServiceName, UpstreamRequest, any EventLoop) -> EventLoopFuture<UpstreamResponse> = { service, request, eventLoop in
            do {
                return try pools.replicas(of: service).execute(request, timeout: timeout, on: eventLoop)
            } catch {
                return eventLoop.makeFailedFuture(error)
            }
        }
        let upgrade: @Sendable (ServiceName, UpstreamRequestHead, any EventLoop) -> EventLoopFuture<UpgradeAnswer> = { service, head, eventLoop in
            do {
                return try pools.replicas(of: service).upgrade(head, timeout: timeout, on: eventLoop)
            } catch {
                return eventLoop.makeFailedFuture(error)
            }
        }
        return Upstream(
            forward: forward,
            health: { service in
                do {
                    let request = UpstreamRequest(head: UpstreamRequestHead(method: .GET, uri: "/health"), body: .none)
                    let eventLoop = MultiThreadedEventLoopGroup.singleton.next()
                    let response = try await forward(service, request, eventLoop).get()
                    guard case .buffered(let body) = response.body else { return ServiceHealth(status: "failing", error: "unexpected answer") }
                    let report = try JSONDecoder().decode(HealthReport.self, from: body)
                    return ServiceHealth(status: response.head.status == .ok ? report.status : "failing", pid: report.pid, backup: report.backup)
                } catch {
                    return ServiceHealth(status: "down", error: "unreachable")
                }
            }, upgrade: upgrade, handOver: handOver(handoff))
    }

    private static func handOver(_ sender: SocketHandoffSender?) -> (@Sendable (ServiceName, Int32, [UInt8]) -> Bool)? {
        guard let sender else { return nil }
        return { service, descriptor, request in service == .chat && sender.send(descriptor: descriptor, request: request) }
    }
}
