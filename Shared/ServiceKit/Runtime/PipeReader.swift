import Foundation

/// Reads a child process's output pipe on a thread of its own until end of file. Foundation's
/// `readabilityHandler` (a dispatch source) was seen crashing libdispatch's event loop when many
/// children came and went in one process; a blocking read on a plain thread has no such race.
package enum PipeReader {
    /// Calls `chunk` with each read, then once with empty data at end of file.
    package static func start(_ handle: FileHandle, name: String, _ chunk: @escaping @Sendable (Data) -> Void) {
        let thread = Thread {
            while true {
                let data = handle.availableData
                chunk(data)
                if data.isEmpty { return }
            }
        }
        thread.name = "pipe " + name
        thread.start()
    }
}
