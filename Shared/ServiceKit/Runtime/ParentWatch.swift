import Foundation
import Logging
import ServiceLifecycle

/// Ends the process gracefully when the launcher that started it is gone (even after a SIGKILL
/// of the launcher), so no orphaned service keeps its port.
struct ParentWatch: Service {
    let parentPID: Int32
    let logger: Logger

    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                while getppid() == parentPID {
                    try await Task.sleep(for: .milliseconds(500))
                }
            }
            if getppid() != parentPID {
                logger.warning("launcher \(parentPID) is gone; shutting down")
            }
        } catch is CancellationError {
            return
        }
    }
}
