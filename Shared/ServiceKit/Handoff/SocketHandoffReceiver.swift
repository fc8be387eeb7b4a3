import CSocketHandoff
import Foundation
import Glibc
import Logging
import ServiceLifecycle
import Synchronization

/// chat-svc's end of the handoff: listens on the Unix socket (mode 0600: only this user's
/// processes may hand connections over) and gives each connection it receives, with the request
/// that came with it, to `adopt`. The system calls block, so they run on threads of their own
/// (one for accepting, one per connected gateway), never on the event loops or the task pool.
package final class SocketHandoffReceiver: Service {
    private let path: String
    private let logger: Logger
    private let adopt: @Sendable (Int32, [UInt8]) -> Void
    private let open = Mutex<Set<Int32>>([])

    package init(path: String, logger: Logger, adopt: @escaping @Sendable (Int32, [UInt8]) -> Void) {
        self.path = path
        self.logger = logger
        self.adopt = adopt
    }

    package func run() async throws {
        let listener: Int32
        do {
            listener = try listen()
        } catch {
            // The gateway then relays sockets as it does without the setting.
            logger.error("socket handoff unavailable", metadata: ["path": .string(path), "error": "\(error)"])
            try? await gracefulShutdown()
            return
        }
        open.withLock { _ = $0.insert(listener) }
        Thread.detachNewThread { [self] in accept(on: listener) }
        logger.info("handing off sockets", metadata: ["path": .string(path)])
        try? await gracefulShutdown()
        // shutdown wakes the threads blocked in accept and recvmsg.
        for descriptor in open.withLock({ $0 }) { shutdown(descriptor, Int32(SHUT_RDWR)) }
        unlink(path)
    }

    private func listen() throws -> Int32 {
        let listener = socket(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard listener >= 0 else { throw HandoffError.system("socket", errno) }
        unlink(path)  // a file left by a process that died
        let bound = UnixSocketAddress.withAddress(path) { address, length in bind(listener, address, length) == 0 }
        guard bound == true, chmod(path, 0o600) == 0, Glibc.listen(listener, 16) == 0 else {
            let code = errno
            close(listener)
            throw HandoffError.system("bind \(path)", code)
        }
        return listener
    }

    private func accept(on listener: Int32) {
        while true {
            let connection = Glibc.accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                break
            }
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            open.withLock { _ = $0.insert(connection) }
            Thread.detachNewThread { [self] in receive(on: connection) }
        }
        open.withLock { _ = $0.remove(listener) }
        close(listener)
    }

    private func receive(on connection: Int32) {
        var buffer = [UInt8](repeating: 0, count: SocketHandoff.maxMessageBytes)
        while true {
            var descriptor: Int32 = -1
            let count = buffer.withUnsafeMutableBytes { glint_handoff_receive(connection, &descriptor, $0.baseAddress, $0.count) }
            if count == -Int(EMSGSIZE) {
                logger.warning("socket handoff refused: request too large")
                continue
            }
            guard count > 0 else { break }
            guard descriptor >= 0 else {
                logger.warning("socket handoff without a connection")
                continue
            }
            adopt(descriptor, Array(buffer[..<count]))
        }
        open.withLock { _ = $0.remove(connection) }
        close(connection)
    }
}

package struct HandoffError: Error, CustomStringConvertible {
    let operation: String
    let code: Int32

    static func system(_ operation: String, _ code: Int32) -> HandoffError { HandoffError(operation: operation, code: code) }

    package var description: String { "\(operation): \(String(cString: strerror(code)))" }
}
