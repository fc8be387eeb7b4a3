import Contracts
import Foundation

/// One running service process. Output goes through `PrefixedOutput`; `onExit` is called once
/// when it ends, whatever ended it.
// Foundation.Process is not marked Sendable; after `run()` we only read its pid and state and send
// signals, which are safe from any thread.
final class ChildProcess: @unchecked Sendable {
    let service: ServiceName
    private let process: Process

    init(
        service: ServiceName, executable: URL, environment: [String: String], output: PrefixedOutput,
        onExit: @escaping @Sendable (Int32) -> Void
    ) throws {
        self.service = service
        let process = Process()
        process.executableURL = executable
        process.arguments = ["serve", service.rawValue]
        process.environment = environment
        let pipe = output.pipe(for: service.rawValue)
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        process.terminationHandler = { finished in onExit(finished.terminationStatus) }
        self.process = process
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }

    func signal(_ signal: Int32) {
        if process.isRunning { kill(process.processIdentifier, signal) }
    }
}
