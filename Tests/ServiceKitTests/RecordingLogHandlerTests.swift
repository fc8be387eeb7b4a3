import Logging
import XCTest

@testable import ServiceKit

/// A request's lines as operators read them: the logger's metadata (its request id, set once per
/// request) and the line's own, the line's winning, kept only for lines that are written.
final class RecordingLogHandlerTests: XCTestCase {
    func testALinesRequestAndMetadataComeFromItsLoggerAndItself() {
        let recent = RecentLogLines(capacity: 10)
        var logger = Logger(label: "market-svc") { RecordingLogHandler(label: $0, recent: recent) }
        logger.logLevel = .warning
        logger[metadataKey: "request_id"] = "r-1"
        logger[metadataKey: "app"] = "app-glint"
        logger[metadataKey: "route"] = "/v1/posts"
        XCTAssertEqual(logger[metadataKey: "app"], "app-glint")
        logger.info("not written at warning")
        logger.warning("a preview left out", metadata: ["route": "/v1/posts/:id", "count": "2"])
        logger.warning("no request", metadata: ["request_id": "r-2"])
        let lines = recent.lines(of: "r-1")
        XCTAssertEqual(lines.map(\.message), ["a preview left out"])
        XCTAssertEqual(lines.first?.metadata, ["app": "app-glint", "route": "/v1/posts/:id", "count": "2"], "the line's own value wins")
        XCTAssertEqual(lines.first?.level, "warning")
        XCTAssertEqual(lines.first?.service, "market-svc")
        XCTAssertEqual(recent.lines(of: "r-2").map(\.message), ["no request"], "a line may name its request itself")
        var unnamed = Logger(label: "auth-svc") { RecordingLogHandler(label: $0, recent: recent) }
        unnamed.logLevel = .warning
        unnamed.warning("outside any request")
        XCTAssertEqual(recent.lines(of: "").count, 0)
    }
}
