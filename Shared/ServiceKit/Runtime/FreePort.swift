import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A free loopback TCP port for a process about to be started (launchers, tests): one that binds
/// now, taken below the kernels' ephemeral ranges (Linux 32768–60999, macOS 49152–65535). A port
/// from the kernel's own bind-to-0 lies inside that range, so any outgoing connection started
/// meanwhile (a service calling one not yet listening) could take it as its source port before
/// the process binds it: that failed a test run once ("Address already in use"). The ports are
/// handed out in turn from a random start, so one process never gets the same port twice before
/// it has gone round the range. Another process could still bind a port first; launchers and
/// tests accept that small window.
package enum FreePort {
    package struct Failure: Error {}

    private static let range = 20_000..<32_768
    private static let next = Mutex(Int.random(in: range))

    package static func pick() throws -> Int {
        for _ in 0..<256 {
            let port = next.withLock { next in
                defer { next = next + 1 == range.upperBound ? range.lowerBound : next + 1 }
                return next
            }
            if try binds(port) { return port }
        }
        throw Failure()
    }

    private static func binds(_ port: Int) throws -> Bool {
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure() }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }
}
