import Logging
import Synchronization

/// Log lines go to standard output (the launcher prefixes them with the service name; containers
/// collect stdout), and those of a request are kept a while for operators (`RecentLogLines`).
/// Bootstrapping is once per process.
package enum LogSetup {
    private static let done = Mutex(false)

    package static func bootstrap() {
        done.withLock { done in
            guard !done else { return }
            LoggingSystem.bootstrap { label in RecordingLogHandler(label: label) }
            done = true
        }
    }
}
