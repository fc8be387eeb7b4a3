import Logging
import Synchronization

/// Log lines go to standard output (the launcher prefixes them with the service name; containers
/// collect stdout). Bootstrapping is once per process.
package enum LogSetup {
    private static let done = Mutex(false)

    package static func bootstrap() {
        done.withLock { done in
            guard !done else { return }
            LoggingSystem.bootstrap { label in StreamLogHandler.standardOutput(label: label) }
            done = true
        }
    }
}
