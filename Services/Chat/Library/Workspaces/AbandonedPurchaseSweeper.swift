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
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    // A sweep stuck in the driver is left by the next one's time.
                    let count = try await abandoning(after: interval) { [workspaces] in
                        try await workspaces.giveUpAbandoned(before: GlintDate.nowMilliseconds() - Self.grace)
                    }
                    if count > 0 { logger.info("abandoned workspace purchases given up", metadata: ["count": "\(count)"]) }
                } catch is CancellationError {
                    return
                } catch {
                    logger.warning("abandoned workspace purchases not swept", metadata: ["error": "\(error)"])
                }
                try? await Task.sleep(for: interval)
            }
        }
    }
}
