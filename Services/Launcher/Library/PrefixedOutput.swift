import Foundation
import ServiceKit
import Synchronization

/// Writes whole lines to standard output, each prefixed with the process it came from, so the
/// eight children's logs interleave by line, never mid-line.
package final class PrefixedOutput: Sendable {
    private let lock = Mutex(())
    private let width: Int

    package init(width: Int = 18) {
        self.width = width
    }

    package func line(from source: String, _ text: some StringProtocol) {
        let padded = source.count >= width ? source : source + String(repeating: " ", count: width - source.count)
        let data = Data("\(padded)| \(text)\n".utf8)
        lock.withLock { _ in FileHandle.standardOutput.write(data) }
    }

    /// A sink for a child's stdout/stderr pipe that splits the byte stream into lines.
    package func pipe(for source: String) -> Pipe {
        let pipe = Pipe()
        let pending = Mutex(Data())
        PipeReader.start(pipe.fileHandleForReading, name: source) { [weak self] chunk in
            guard let self else { return }
            if chunk.isEmpty {
                let rest = pending.withLock { buffer -> Data in
                    defer { buffer.removeAll() }; return buffer
                }
                if !rest.isEmpty { self.line(from: source, String(decoding: rest, as: UTF8.self)) }
                return
            }
            let lines = pending.withLock { buffer -> [Data] in
                buffer.append(chunk)
                var lines: [Data] = []
                while let newline = buffer.firstIndex(of: 0x0A) {
                    lines.append(buffer[buffer.startIndex..<newline])
                    buffer.removeSubrange(buffer.startIndex...newline)
                }
                return lines
            }
            for line in lines { self.line(from: source, String(decoding: line, as: UTF8.self)) }
        }
        return pipe
    }
}
