import Logging
import ServiceKit
import ServiceLifecycle

/// Runs a backend's sweep of removed files past their delay every `interval` (an hour, or the
/// delay when shorter). Every replica may sweep: deleting what another already deleted is no error.
struct DelayedDeletionSweeper: Service {
    let interval: Duration
    let logger: Logger
    let sweep: @Sendable () async throws -> Int

    func run() async throws {
        await runRounds(every: interval, logger: logger, done: "deleted files past their delay", failed: "delayed file deletions not swept", sweep)
    }
}
