import XCTest

/// `XCTAssertThrowsError` for async code, which XCTest's own cannot take.
package func XCTAssertThrowsAsync<T>(
    _ body: @autoclosure () async throws -> T, _ message: String = "", file: StaticString = #filePath, line: UInt = #line,
    _ handler: (any Error) -> Void = { _ in }
) async {
    do {
        _ = try await body()
        XCTFail("no error thrown" + (message.isEmpty ? "" : ": " + message), file: file, line: line)
    } catch {
        handler(error)
    }
}
