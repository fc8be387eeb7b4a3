import Glibc
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization
import TestSupport
import XCTest

@testable import ServiceKit

/// The handoff's parts on real sockets: the descriptor under a NIO channel, and a connection
/// passed from one end of the Unix socket to the other with its request.
final class SocketHandoffTests: XCTestCase {
    func testTheDescriptorUnderANIOChannelIsItsSocket() async throws {
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
        let client = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(to: try XCTUnwrap(server.localAddress)).get()
        let descriptor = try XCTUnwrap(SocketHandoff.descriptor(of: client), "NIO's layout changed: the gateway would only splice")
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        XCTAssertEqual(named, 0)
        XCTAssertEqual(Int(UInt16(bigEndian: address.sin_port)), client.localAddress?.port, "the descriptor is this channel's socket")
        try await client.close()
        try await server.close()
    }

    func testAConnectionAndItsRequestReachTheReceiverWhichCanUseIt() async throws {
        let path = try temporaryPath()
        let adopted = Adopted()
        let receiver = SocketHandoffReceiver(path: path, logger: Logger(label: "test")) { descriptor, request in adopted.add(descriptor, request) }
        let group = ServiceGroup(configuration: .init(services: [.init(service: receiver)], logger: Logger(label: "test")))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            // A connected pair stands in for a client's connection: what the receiver gets must
            // be the same socket (what is written on it arrives at the other end).
            var pair: [Int32] = [0, 0]
            XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair), 0)
            defer { close(pair[1]) }
            let sender = SocketHandoffSender(path: path)
            let request = Array("GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\n\r\n".utf8)
            // The receiver listens from its own thread: the first sends may find nobody there.
            let sent = await HTTPProbe.eventually(within: .seconds(5), every: .milliseconds(10)) { [pair] in
                sender.send(descriptor: pair[0], request: request) ? true : nil
            }
            XCTAssertEqual(sent, true)
            close(pair[0])  // the sender's copy goes; the receiver's stays open
            let arrived = await HTTPProbe.eventually(within: .seconds(5), every: .milliseconds(10)) { adopted.first }
            let handoff = try XCTUnwrap(arrived)
            let descriptor = handoff.descriptor
            XCTAssertEqual(handoff.request, request)
            XCTAssertEqual(write(descriptor, "hi", 2), 2)
            var bytes = [UInt8](repeating: 0, count: 2)
            XCTAssertEqual(read(pair[1], &bytes, 2), 2)
            XCTAssertEqual(bytes, Array("hi".utf8))
            close(descriptor)
            XCTAssertFalse(sender.send(descriptor: pair[1], request: [UInt8](repeating: 0, count: SocketHandoff.maxMessageBytes + 1)), "too large")
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "the socket file goes with the receiver")
    }

    private func temporaryPath() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("handoff-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("h.sock").path
    }
}

private final class Adopted: Sendable {
    struct Handoff: Sendable {
        var descriptor: Int32
        var request: [UInt8]
    }

    private let storage = Mutex<[Handoff]>([])
    func add(_ descriptor: Int32, _ request: [UInt8]) { storage.withLock { $0.append(Handoff(descriptor: descriptor, request: request)) } }
    var first: Handoff? { storage.withLock { $0.first } }
}
