import Logging
import ServiceLifecycle

/// A sweep run every `interval` until the service group shuts down: each round answers how many
/// things it did (logged as `done` when any), and a failed round is logged as `failed` and the
/// next one comes at its time.
package func runRounds(
    every interval: Duration, logger: Logger, done: Logger.Message, failed: Logger.Message, _ round: @escaping @Sendable () async throws -> Int
) async {
    await cancelWhenGracefulShutdown {
        while !Task.isCancelled {
            do {
                let count = try await round()
                if count > 0 { logger.info(done, metadata: ["count": "\(count)"]) }
            } catch is CancellationError {
                return
            } catch {
                logger.warning(failed, metadata: ["error": "\(error)"])
            }
            try? await Task.sleep(for: interval)
        }
    }
}
