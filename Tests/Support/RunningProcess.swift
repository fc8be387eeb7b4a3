import Foundation
import ServiceKit
import Synchronization

/// A real executable started by a test: its output is kept line by line, and the test can await
/// a line or the process's exit (event-driven, with a deadline; never a fixed sleep).
package final class RunningProcess: @unchecked Sendable {
    package struct Timeout: Error, CustomStringConvertible {
        package let waitingFor: String
        package let transcript: String
        package var description: String { "timed out waiting for \(waitingFor); output so far:\n\(transcript)" }
    }

    private typealias LineWaiter = (id: Int, needle: String, continuation: CheckedContinuation<String?, Never>)
    private typealias ExitWaiter = (id: Int, continuation: CheckedContinuation<Int32?, Never>)

    private struct State {
        var lines: [String] = []
        var partial = Data()
        var exitStatus: Int32?
        var outputEnded = false
        /// The process has exited and its output is read to the end (or the drain's bound passed):
        /// only then is the transcript whole, so only then are waiters answered.
        var finished = false
        var lineWaiters: [LineWaiter] = []
        var exitWaiters: [ExitWaiter] = []
        var nextID = 0
    }

    private let process = Process()
    private let state = Mutex(State())
    package let name: String

    /// Folder holding the package's built executables (next to the test bundle).
    package static var productsDirectory: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// One of the package's executables, by product name.
    package convenience init(_ executable: String, arguments: [String] = [], environment: [String: String]) throws {
        try self.init(
            url: Self.productsDirectory.appendingPathComponent(executable), name: executable, arguments: arguments, environment: environment)
    }

    /// Any program (e.g. the Python Socket.IO client of the realtime tests).
    package init(url: URL, name: String, arguments: [String] = [], environment: [String: String]) throws {
        self.name = name
        process.executableURL = url
        process.arguments = arguments
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        PipeReader.start(pipe.fileHandleForReading, name: name) { [weak self] data in self?.received(data) }
        process.terminationHandler = { [weak self] finished in self?.exited(finished.terminationStatus) }
        try process.run()
    }

    package var pid: Int32 { process.processIdentifier }
    package var transcript: String { state.withLock { $0.lines.joined(separator: "\n") } }

    package func signal(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// The first line (already seen or still to come) containing `needle`.
    package func line(containing needle: String, within timeout: Duration = .seconds(60)) async throws -> String {
        let id = state.withLock { state -> Int in
            state.nextID += 1; return state.nextID
        }
        let found: String? = await withCheckedContinuation { continuation in
            let existing = state.withLock { state -> String?? in
                if let line = state.lines.first(where: { $0.contains(needle) }) { return .some(line) }
                if state.finished { return .some(nil) }
                state.lineWaiters.append((id, needle, continuation))
                return nil
            }
            if let existing { continuation.resume(returning: existing) }
            Task {
                try? await Task.sleep(for: timeout)
                self.expireLineWaiter(id)
            }
        }
        guard let found else { throw Timeout(waitingFor: "'\(needle)' from \(name)", transcript: transcript) }
        return found
    }

    /// The exit status, once the process has ended.
    package func exitStatus(within timeout: Duration = .seconds(30)) async throws -> Int32 {
        let id = state.withLock { state -> Int in
            state.nextID += 1; return state.nextID
        }
        let status: Int32? = await withCheckedContinuation { continuation in
            let existing = state.withLock { state -> Int32? in
                if state.finished, let status = state.exitStatus { return status }
                state.exitWaiters.append((id, continuation))
                return nil
            }
            if let existing { continuation.resume(returning: existing) }
            Task {
                try? await Task.sleep(for: timeout)
                self.expireExitWaiter(id)
            }
        }
        guard let status else { throw Timeout(waitingFor: "exit of \(name)", transcript: transcript) }
        return status
    }

    /// Ends the process if a test left it running.
    package func stop() async {
        guard process.isRunning else { return }
        signal(SIGKILL)
        _ = try? await exitStatus(within: .seconds(10))
    }

    private func received(_ data: Data) {
        if data.isEmpty { return outputEnded() }
        let ready = state.withLock { state -> [(CheckedContinuation<String?, Never>, String)] in
            state.partial.append(data)
            while let newline = state.partial.firstIndex(of: 0x0A) {
                state.lines.append(String(decoding: state.partial[state.partial.startIndex..<newline], as: UTF8.self))
                state.partial.removeSubrange(state.partial.startIndex...newline)
            }
            var ready: [(CheckedContinuation<String?, Never>, String)] = []
            state.lineWaiters.removeAll { waiter in
                guard let line = state.lines.first(where: { $0.contains(waiter.needle) }) else { return false }
                ready.append((waiter.continuation, line))
                return true
            }
            return ready
        }
        for (continuation, line) in ready { continuation.resume(returning: line) }
    }

    private func outputEnded() {
        // A last line without its newline is still a line (and may be one a waiter wants).
        if state.withLock({ !$0.partial.isEmpty }) { received(Data([0x0A])) }
        state.withLock { $0.outputEnded = true }
        finishIfDone()
    }

    /// The termination handler can run before the pipe's last bytes are read (a process that
    /// printed a JSON document and exited was once seen with half of it). Waiters are answered at
    /// end of output; a grandchild still holding the pipe gets a bound so a waiter is not held.
    private func exited(_ status: Int32) {
        state.withLock { $0.exitStatus = status }
        finishIfDone()
        Task {
            try? await Task.sleep(for: Self.drainBound)
            self.finishIfDone(drained: true)
        }
    }

    private static let drainBound = Duration.seconds(5)

    private func finishIfDone(drained: Bool = false) {
        let finished = state.withLock { state -> (lines: [LineWaiter], exits: [ExitWaiter], status: Int32)? in
            guard !state.finished, let status = state.exitStatus, state.outputEnded || drained else { return nil }
            state.finished = true
            defer { state.lineWaiters.removeAll(); state.exitWaiters.removeAll() }
            return (state.lineWaiters, state.exitWaiters, status)
        }
        guard let finished else { return }
        // A line waiter's line would have been handed over as it arrived: none is coming now.
        for waiter in finished.lines { waiter.continuation.resume(returning: nil) }
        for waiter in finished.exits { waiter.continuation.resume(returning: finished.status) }
    }

    private func expireLineWaiter(_ id: Int) {
        let continuation = state.withLock { state -> CheckedContinuation<String?, Never>? in
            guard let index = state.lineWaiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.lineWaiters.remove(at: index).continuation
        }
        continuation?.resume(returning: nil)
    }

    private func expireExitWaiter(_ id: Int) {
        let continuation = state.withLock { state -> CheckedContinuation<Int32?, Never>? in
            guard let index = state.exitWaiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.exitWaiters.remove(at: index).continuation
        }
        continuation?.resume(returning: nil)
    }
}
