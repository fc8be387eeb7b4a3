import Foundation

/// A call no test expected, on a client's `unimplemented` value: it fails the running XCTest
/// test (found at run time, as pointfreeco's XCTestDynamicOverlay does, so no library links
/// XCTest) and answers an error for the caller to throw, so a swallowed error still fails.
package enum Unimplemented {
    package struct Call: Error, CustomStringConvertible {
        package let name: String
        package var description: String { "unimplemented: \(name) was called" }
    }

    package static func call(_ name: String, file: StaticString = #filePath, line: UInt = #line) -> Call {
        let call = Call(name: name)
        fail(call.description, file, line)
        return call
    }

    private typealias XCTFail = @convention(thin) (String, StaticString, UInt) -> Void

    /// XCTest's `XCTFail(_:file:line:)` when the process runs tests; nothing otherwise.
    private static let fail: @Sendable (String, StaticString, UInt) -> Void = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "$s6XCTest7XCTFail_4file4lineySS_s12StaticStringVSutF") else {
            return { _, _, _ in }
        }
        let xctFail = unsafeBitCast(symbol, to: XCTFail.self)
        return { message, file, line in xctFail(message, file, line) }
    }()
}
