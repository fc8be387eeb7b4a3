import Contracts
import Logging
import ServiceKit
import ServiceLifecycle

/// Gives back workspace purchases left half-way (this process or market-svc gone between the
/// spend and the activation): once a minute, those pending longer than any request lasts.
struct AbandonedPurchaseSweeper: Service {
    let workspaces: WorkspaceService
    let logger: Logger
    var interval = Duration.seconds(60)
    /// Older than this, a pending purchase's request is over.
    static let grace: Int64 = 120_000

    func run() async throws {
        await runRounds(
            every: interval, logger: logger, done: "abandoned workspace purchases given up", failed: "abandoned workspace purchases not swept"
        ) { [workspaces, interval] in
            // A sweep stuck in the driver is left by the next one's time.
            try await abandoning(after: interval) { [workspaces] in
                try await workspaces.giveUpAbandoned(before: GlintDate.nowMilliseconds() - Self.grace)
            }
        }
    }
}
