import CSocketHandoff
import Glibc
import Synchronization

/// The gateway's end of the handoff: one `SOCK_SEQPACKET` connection to chat-svc's handoff
/// socket (made on first use, made again after a failure), each message a request and the
/// client's descriptor. Sends never block the event loop: a full queue is a failed handoff.
package final class SocketHandoffSender: Sendable {
    private let path: String
    private let connection = Mutex<Int32?>(nil)

    package init(path: String) {
        self.path = path
    }

    deinit {
        if let descriptor = connection.withLock({ $0 }) { close(descriptor) }
    }

    /// True when chat-svc now holds the connection (the caller closes its own descriptor).
    package func send(descriptor: Int32, request: [UInt8]) -> Bool {
        guard request.count <= SocketHandoff.maxMessageBytes else { return false }
        return connection.withLock { connection in
            for _ in 0..<2 {
                guard let channel = connection ?? connect() else { return false }
                connection = channel
                let result = request.withUnsafeBytes { glint_handoff_send(channel, descriptor, $0.baseAddress, $0.count) }
                if result == 0 { return true }
                // The receiver went (restarted, say): one more try on a new connection.
                close(channel)
                connection = nil
                if result == -EAGAIN { return false }
            }
            return false
        }
    }

    private func connect() -> Int32? {
        let channel = socket(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard channel >= 0 else { return nil }
        let connected = UnixSocketAddress.withAddress(path) { address, length in Glibc.connect(channel, address, length) == 0 }
        guard connected == true else {
            close(channel)
            return nil
        }
        return channel
    }
}
