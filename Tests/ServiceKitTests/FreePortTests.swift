import ServiceKit
import XCTest

final class FreePortTests: XCTestCase {
    /// Below the kernel's ephemeral range (no outgoing connection takes one meanwhile as its
    /// source port), and never the same one twice in a process.
    func testPortsAreDistinctAndBelowTheEphemeralRange() throws {
        let ports = try (0..<200).map { _ in try FreePort.pick() }
        XCTAssertEqual(Set(ports).count, ports.count)
        for port in ports { XCTAssert((20_000..<32_768).contains(port), "\(port)") }
        #if os(Linux)
            let range = try String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)
            let low = Int(range.split(whereSeparator: \.isWhitespace)[0])!
            XCTAssert(ports.allSatisfy { $0 < low }, "the ephemeral range starts at \(low)")
        #endif
    }
}
