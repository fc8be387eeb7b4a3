import Contracts
import NIOCore

/// `GATEWAY_MAX_UPSTREAM_CONNECTIONS`: the connections the gateway may hold to one service
/// process (each replica is one). A replica of a service the loops carry is reached on two paths
/// — each front loop's own pool, and NIO's pool for the requests the loops hand back — so the budget is
/// split between them: every path an equal share, NIO the remainder; their sum never exceeds it.
/// A budget too small to give every path one connection runs fewer front loops (none at 1:
/// NIO carries everything).
struct UpstreamBudget: Sendable {
    let perService: Int
    /// How many front loops run.
    let loops: Int

    init(perService: Int, cores: Int = System.coreCount) {
        self.perService = max(1, perService)
        self.loops = min(max(1, cores), self.perService - 1)
    }

    /// Whether the front loops carry `service` with this many replicas: all but chat-svc with
    /// several, whose Engine.IO sessions each live in one replica (`UpstreamReplicas` finds it;
    /// the loops only take turns).
    func loopsCarry(_ service: ServiceName, replicas: Int) -> Bool { loops > 0 && (replicas == 1 || service != .chat) }

    /// Each front loop's connections to a replica of a service it carries.
    var perLoop: Int { perService / (loops + 1) }

    /// NIO's pool to one replica of `service` with `replicas` replicas.
    func nio(_ service: ServiceName, replicas: Int) -> Int { loopsCarry(service, replicas: replicas) ? perService - loops * perLoop : perService }
}
