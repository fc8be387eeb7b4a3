import NIOCore
import NIOEmbedded
import NIOHTTP1
import XCTest

@testable import Gateway

/// A streamed answer's end reaches its connection a moment late (its stream speaks on the event
/// loop after the consumer finished); by then the connection may carry the next answer. That
/// late word must not cut the next answer: under concurrent 1 MB image reads it did, for one
/// answer in five (found benchmarking issue 38).
final class UpstreamStreamSerialTests: XCTestCase {
    func testALateWordFromTheLastStreamLeavesTheNextAnswerAlone() throws {
        let handler = UpstreamConnectionHandler(host: "127.0.0.1:8083")
        let channel = EmbeddedChannel(handler: handler)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 8083)).wait()
        var reused = 0
        handler.onReusable = { reused += 1 }
        let length = UpstreamResponse.bufferedLimit + 1
        // Both answers' streams are held, so neither ends by itself before the test says so.
        var held: [UpstreamResponse] = []
        for answer in 1...2 {
            let promise = channel.eventLoop.makePromise(of: UpstreamResponse.self)
            handler.send(
                UpstreamRequest(head: UpstreamRequestHead(method: .GET, uri: "/v1/data/posts/a.jpg"), body: .none),
                timeout: .seconds(5),
                promise: promise)
            try channel.writeInbound(ByteBuffer(string: "HTTP/1.1 200 OK\r\ncontent-length: \(length)\r\n\r\n"))
            let response = try promise.futureResult.wait()
            guard case .stream = response.body else { return XCTFail("a large answer streams") }
            held.append(response)
            if answer == 1 {
                try channel.writeInbound(ByteBuffer(repeating: UInt8(ascii: "a"), count: length))
                XCTAssertEqual(reused, 1, "the first answer is over: the connection takes the next request")
            }
        }
        XCTAssertTrue(channel.isActive, "streaming the second answer")
        // The first stream's ending arrives now, while the second answer is streaming.
        handler.consumerGone(serial: 1)
        XCTAssertTrue(channel.isActive, "the second answer goes on")
        handler.consumerGone(serial: 2)
        XCTAssertFalse(channel.isActive, "its own consumer gone: the rest of that answer would arrive here, so the connection closes")
        XCTAssertEqual(held.count, 2)
    }
}
