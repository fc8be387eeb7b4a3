import AsyncHTTPClient
import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging
import NIOCore
import NIOHTTP1
import Synchronization

/// A Socket.IO v4 client written independently of the server's codecs (so they cannot share a
/// mistake): Engine.IO v4 over WebSocket, or long-polling first and then the upgrade (probe,
/// `5`), answering pings; one namespace per client.
package final class SocketIOTestClient: Sendable {
    package enum Transport: Sendable { case websocket, pollingThenUpgrade }

    /// A Socket.IO packet as received.
    package struct Packet: Sendable, CustomStringConvertible {
        package var type: Int
        package var namespace: String
        package var ackID: Int?
        /// The JSON payload as text ("" when none).
        package var json: String
        package var description: String { "\(type)\(namespace),\(ackID.map(String.init) ?? "")\(json)" }

        /// EVENT name and arguments.
        package var event: (name: String, arguments: [Any])? {
            guard type == 2, let array = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [Any], let name = array.first as? String else {
                return nil
            }
            return (name, Array(array.dropFirst()))
        }

        package var object: [String: Any]? {
            (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any]
        }
    }

    package let namespace: String
    private let inbox: AsyncStream<Packet>
    private let inboxInput: AsyncStream<Packet>.Continuation
    private let outbox: AsyncStream<String>.Continuation
    private let outboxStream: AsyncStream<String>
    private let received = Mutex<[Packet]>([])
    private let task = Mutex<Task<Void, Never>?>(nil)
    private let closedState = Mutex(false)

    private init(namespace: String) {
        self.namespace = namespace
        (inbox, inboxInput) = AsyncStream.makeStream(of: Packet.self)
        (outboxStream, outbox) = AsyncStream.makeStream(of: String.self)
    }

    /// Opens a session at `baseURL` (`http://host:port`) and sends CONNECT for `namespace` with
    /// `auth` as its payload. The CONNECT answer is the first packet `next` returns.
    package static func open(
        _ baseURL: String, transport: Transport, namespace: String, headers: [(String, String)] = [], auth: [String: String]? = nil
    ) async throws -> SocketIOTestClient {
        let client = SocketIOTestClient(namespace: namespace)
        let connect =
            "40" + (namespace == "/" ? "" : namespace + ",")
            + (try auth.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) } ?? "")
        var sid: String?
        if transport == .pollingThenUpgrade {
            let open = try await poll(baseURL + "/socket.io/?EIO=4&transport=polling", headers: headers)
            guard open.first == "0", let handshake = try JSONSerialization.jsonObject(with: Data(open.dropFirst().utf8)) as? [String: Any],
                let id = handshake["sid"] as? String
            else { throw ClientError.protocolViolation("bad handshake \(open)") }
            sid = id
            let url = baseURL + "/socket.io/?EIO=4&transport=polling&sid=" + id
            _ = try await poll(url, method: .POST, body: connect, headers: headers)
            // Polls until the CONNECT answer came (pings are answered on the way).
            var answered = false
            while !answered {
                for packet in try await poll(url, headers: headers).split(separator: "\u{1e}").map(String.init) {
                    if packet == "2" {
                        _ = try await poll(url, method: .POST, body: "3", headers: headers)
                    } else if packet.hasPrefix("4") {
                        client.deliver(String(packet.dropFirst()))
                        answered = answered || packet.hasPrefix("40") || packet.hasPrefix("44")
                    }
                }
            }
        }
        let wsURL = "ws" + baseURL.dropFirst("http".count) + "/socket.io/?EIO=4&transport=websocket" + (sid.map { "&sid=" + $0 } ?? "")
        var fields = HTTPFields()
        for (name, value) in headers { fields[HTTPField.Name(name)!] = value }
        let ready = AsyncStream<Result<Void, ClientError>>.makeStream()
        let upgrading = sid != nil
        let task = Task {
            do {
                try await WebSocketClient.connect(
                    url: wsURL, configuration: .init(maxFrameSize: 1 << 20, additionalHeaders: fields), logger: Logger(label: "socket.io-test-client")
                ) { inbound, outbound, _ in
                    if upgrading {
                        try await outbound.write(.text("2probe"))
                    }
                    await withTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for await text in client.outboxStream { try? await outbound.write(.text(text)) }
                            // Closed by `close()` (or after the server's close): the server learns
                            // at once, as from a client app, not at its ping timeout.
                            try? await outbound.close(.normalClosure, reason: nil)
                        }
                        do {
                            for try await message in inbound.messages(maxSize: 1 << 20) {
                                guard case .text(let text) = message else { continue }
                                switch text.first {
                                case "0": client.outbox.yield(connect); ready.continuation.yield(.success(()))
                                case "2": client.outbox.yield("3")
                                case "3" where text == "3probe": client.outbox.yield("5"); ready.continuation.yield(.success(()))
                                case "4": client.deliver(String(text.dropFirst()))
                                default: break
                                }
                            }
                        } catch {}
                        client.outbox.finish()
                    }
                }
            } catch {
                ready.continuation.yield(.failure(.protocolViolation("websocket failed: \(error)")))
            }
            client.closedState.withLock { $0 = true }
            client.inboxInput.finish()
        }
        client.task.withLock { $0 = task }
        for await result in ready.stream {
            try result.get()
            break
        }
        return client
    }

    package enum ClientError: Error, Sendable {
        case protocolViolation(String)
        case timeout(String)
        case closed
    }

    private func deliver(_ text: String) {
        guard let typeCharacter = text.first, let type = Int(String(typeCharacter)) else { return }
        var rest = Substring(text.dropFirst())
        var packetNamespace = "/"
        if rest.first == "/" {
            let end = rest.firstIndex(of: ",") ?? rest.endIndex
            packetNamespace = String(rest[..<end])
            rest = end == rest.endIndex ? "" : rest[rest.index(after: end)...]
        }
        let digits = rest.prefix { $0.isNumber }
        rest = rest.dropFirst(digits.count)
        let packet = Packet(type: type, namespace: packetNamespace, ackID: Int(digits), json: String(rest))
        inboxInput.yield(packet)
    }

    /// The next packet matching `predicate` (others are kept for `received`), or a timeout.
    package func next(
        within timeout: Duration = .seconds(10), where predicate: @escaping @Sendable (Packet) -> Bool = { _ in true }
    ) async throws -> Packet {
        try await withThrowingTaskGroup(of: Packet?.self) { group in
            group.addTask {
                for await packet in self.inbox {
                    self.received.withLock { $0.append(packet) }
                    if predicate(packet) { return packet }
                }
                throw ClientError.closed
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            guard let first = try await group.next(), let packet = first else {
                group.cancelAll()
                throw ClientError.timeout("no matching packet within \(timeout)")
            }
            group.cancelAll()
            return packet
        }
    }

    /// The next EVENT with this name.
    package func nextEvent(_ name: String, within timeout: Duration = .seconds(10)) async throws -> [Any] {
        let packet = try await next(within: timeout) { $0.event?.name == name }
        return packet.event?.arguments ?? []
    }

    /// Everything received so far (through `next`).
    package var packets: [Packet] { received.withLock { $0 } }

    package func emit(_ event: String, _ arguments: [Any] = [], ackID: Int? = nil) throws {
        let json = String(decoding: try JSONSerialization.data(withJSONObject: [event] + arguments), as: UTF8.self)
        outbox.yield("42" + (namespace == "/" ? "" : namespace + ",") + (ackID.map(String.init) ?? "") + json)
    }

    /// Sends raw Engine.IO text (for protocol edge cases).
    package func sendRaw(_ text: String) {
        outbox.yield(text)
    }

    package var isClosed: Bool { closedState.withLock { $0 } }

    /// Sends a close frame (the writer's last act) and lets the server answer it; a server that
    /// never does is cut off after a few seconds.
    package func close() {
        outbox.finish()
        let task = task.withLock { $0 }
        Task {
            try? await Task.sleep(for: .seconds(5))
            task?.cancel()
        }
    }

    private static func poll(_ url: String, method: HTTPMethod = .GET, body: String? = nil, headers: [(String, String)]) async throws -> String {
        var request = HTTPClientRequest(url: url)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(40))
        let text = String(buffer: try await response.body.collect(upTo: 4 << 20))
        guard response.status == .ok else { throw ClientError.protocolViolation("polling answered \(response.status.code): \(text)") }
        return text
    }
}
