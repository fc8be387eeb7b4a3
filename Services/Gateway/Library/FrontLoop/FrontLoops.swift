import Contracts
import Glibc
import HummingbirdCore
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Prometheus
import ServiceKit
import ServiceLifecycle

/// The gateway's plain path off NIO's channels: one `FrontLoop` thread per core, each with its
/// own connections to the services. NIO still accepts every connection and `ByteFrontHandler`
/// reads its first request; a plain one the policy admits at once to a service the loops carry
/// (`UpstreamBudget.loopsCarry`) moves the connection here (its descriptor duplicated, NIO's channel closed), where
/// each request costs two reads and two writes and the policy's work, and nothing of a channel
/// pipeline, future or task (Benchmarks/README, session 33: NIO's pipeline and futures and the
/// Swift runtime around them were half of the gateway's CPU per request). A request the loop
/// does not take goes back to NIO (`handBack`) on a channel set up as Hummingbird's listener
/// sets up its own, so everything else is answered exactly as before.
final class FrontLoops: Service, Sendable {
    /// Services the loops forward to (those the budget gives them) with their replicas'
    /// addresses, and how many connections each loop may open to each replica.
    struct Settings: Sendable {
        var addresses: [ServiceName: [(host: String, port: Int)]]
        /// Of a service with several replicas: the turns and the replicas marked down, the same
        /// for NIO's path and the loops.
        var turns: [ServiceName: UpstreamReplicas]
        var connectionsPerLoop: Int
        var loops: Int

        init(common: CommonConfiguration, budget: UpstreamBudget, pools: UpstreamPools) throws {
            var addresses: [ServiceName: [(host: String, port: Int)]] = [:]
            var turns: [ServiceName: UpstreamReplicas] = [:]
            for service in ServiceName.backends {
                let urls = common.urls(of: service)
                guard budget.loopsCarry(service, replicas: urls.count) else { continue }
                addresses[service] = try urls.map { try UpstreamPools.address($0, of: service) }
                if urls.count > 1 { turns[service] = try pools.replicas(of: service) }
            }
            self.addresses = addresses
            self.turns = turns
            self.connectionsPerLoop = budget.perLoop
            self.loops = budget.loops
        }
    }

    let policy: GatewayPolicy
    let metrics: RequestMetrics
    /// The access lines' logger when they are on (info).
    let accessLog: Logger?
    let idleTimeout: Duration
    let upstreamTimeout: Duration
    /// Times a pipelining client was read `FrontInput.maxAhead` ahead of its answer and reading
    /// waited: how often clients send faster than the services answer.
    let readPauses: Counter
    private let served: Set<ServiceName>
    /// Connections moved to the loops, and handed back to NIO: how much of the traffic the loops carry.
    private let moved: Counter
    private let returned: Counter
    private let settings: Settings
    /// Started with the first connection moved (an assembled gateway that never serves, as in
    /// tests of the routes, starts no threads), then the next to take one.
    private let started = NIOLockedValueBox<(loops: [FrontLoop], turn: Int)?>(nil)
    private let logger: Logger
    /// Hummingbird's connection setup, for connections handed back.
    private let childChannel = NIOLockedValueBox<FrontedHTTP1Channel?>(nil)
    /// Connections handed back, for graceful shutdown (Hummingbird's listener does not know them).
    private let handedBack = NIOLockedValueBox<[ObjectIdentifier: any Channel]>([:])

    init(settings: Settings, policy: GatewayPolicy, metrics: RequestMetrics, registry: PrometheusCollectorRegistry, logger: Logger) {
        self.moved = registry.makeCounter(
            descriptor: MetricNameDescriptor(
                metricName: "gateway_front_loop_connections", unitName: "total", helpText: "Client connections moved to the front loops"))
        self.returned = registry.makeCounter(
            descriptor: MetricNameDescriptor(
                metricName: "gateway_front_loop_handbacks", unitName: "total", helpText: "Connections the front loops handed back to NIO"))
        self.readPauses = registry.makeCounter(
            descriptor: MetricNameDescriptor(
                metricName: "gateway_front_loop_read_pauses", unitName: "total",
                helpText: "Times a pipelining client was read 64 KB ahead of its answer and reading waited"))
        self.policy = policy
        self.metrics = metrics
        self.logger = logger
        self.accessLog = logger.logLevel <= .info ? logger : nil
        self.idleTimeout = .seconds(policy.configuration.idleTimeoutSeconds)
        self.upstreamTimeout = .seconds(policy.configuration.upstreamTimeoutSeconds)
        self.served = Set(settings.addresses.keys)
        self.settings = settings
    }

    private static func start(_ settings: Settings, policy: GatewayPolicy) -> [FrontLoop] {
        let loops = (0..<max(1, settings.loops)).map { FrontLoop(name: "front-loop-\($0)", policy: policy) }
        for loop in loops {
            // Before any connection: jobs run in order.
            loop.execute {
                for (service, addresses) in settings.addresses {
                    loop.upstreams[service] = addresses.map {
                        FrontLoopUpstreamPool(host: $0.host, port: $0.port, limit: settings.connectionsPerLoop, loop: loop)
                    }
                }
            }
        }
        return loops
    }

    /// The turns among a service's replicas, when it has several.
    func turns(of service: ServiceName) -> UpstreamReplicas? { settings.turns[service] }

    /// Whether a request to `service` may move to a loop.
    func serves(_ service: ServiceName) -> Bool { served.contains(service) }

    /// Given by the server builder once Hummingbird has made it.
    func setChildChannel(_ channel: FrontedHTTP1Channel) {
        childChannel.withLockedValue { $0 = channel }
    }

    /// A client connection from NIO, whose first request (`first`, its head read) was admitted:
    /// `input` is what was read after that head.
    func adopt(_ descriptor: Int32, input: ByteBuffer, first: DirectForward, start: ContinuousClock.Instant, remoteIP: String?) {
        moved.increment()
        let loop = started.withLockedValue { started in
            var (loops, turn) = started ?? (Self.start(settings, policy: policy), 0)
            turn = (turn + 1) % loops.count
            started = (loops, turn)
            return loops[turn]
        }
        let taken = loop.execute { [self] in
            _ = FrontLoopClient(descriptor: descriptor, input: input, first: (first, start), remoteIP: remoteIP, loop: loop, loops: self)
        }
        if !taken {
            // The loops ended (graceful shutdown) after NIO read this request: closed unanswered,
            // as a server that is going away closes an idle connection.
            logger.info("a connection moved after the front loops ended was closed")
            close(descriptor)
        }
    }

    /// A connection whose next request (at the start of `input`) is not the loops': back to NIO,
    /// set up as Hummingbird sets up a connection it accepted, with `input` as the first bytes read.
    func handBack(_ descriptor: Int32, _ input: ByteBuffer) {
        returned.increment()
        guard let childChannel = childChannel.withLockedValue({ $0 }) else {
            close(descriptor)
            return
        }
        let logger = self.logger
        let setUp = NIOLockedValueBox<FrontedHTTP1Channel.Value?>(nil)
        ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            // The bytes the loop read go first: nothing is read before they are in.
            .channelOption(.autoRead, value: false)
            .channelInitializer { channel in
                childChannel.setup(channel: channel, logger: logger).map { value in setUp.withLockedValue { $0 = value } }
            }
            .withConnectedSocket(descriptor)
            .whenComplete { [self] result in
                guard case .success(let channel) = result, let value = setUp.withLockedValue({ $0 }) else {
                    logger.warning("a connection could not be handed back to NIO")
                    return
                }
                let id = ObjectIdentifier(channel)
                handedBack.withLockedValue { $0[id] = channel }
                channel.closeFuture.whenComplete { _ in self.handedBack.withLockedValue { $0[id] = nil } }
                if input.readableBytes > 0 { channel.pipeline.fireChannelRead(input) }
                channel.pipeline.fireChannelReadComplete()
                channel.setOption(.autoRead, value: true).whenFailure { _ in channel.close(promise: nil) }
                Task { await childChannel.handle(value: value, logger: logger) }
            }
    }

    /// A duplicate of a NIO channel's descriptor: closing the channel (which closes, never shuts
    /// down) then leaves the connection open under it, for a loop to take.
    static func duplicateDescriptor(of channel: any Channel) -> Int32? {
        guard let descriptor = SocketHandoff.descriptor(of: channel) else { return nil }
        let duplicate = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
        return duplicate >= 0 ? duplicate : nil
    }

    func run() async throws {
        try? await gracefulShutdown()
        for loop in started.withLockedValue({ $0?.loops ?? [] }) { loop.quiesce() }
        for channel in handedBack.withLockedValue({ Array($0.values) }) {
            channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        }
    }
}
