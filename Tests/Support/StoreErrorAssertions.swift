import ServiceKit
import XCTest

/// That `body` throws exactly `expected` (a rules type's answer, asked the way each store asks it).
package func XCTAssertThrowsStoreError<T>(
    _ expected: StoreError, _ body: @autoclosure () throws -> T, file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertThrowsError(try body(), file: file, line: line) { error in
        XCTAssertEqual(String(describing: error), String(describing: expected), file: file, line: line)
    }
}
