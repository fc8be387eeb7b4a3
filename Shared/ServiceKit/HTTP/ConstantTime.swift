/// Comparison whose duration does not depend on where two secrets first differ. Generic over
/// the bytes' container, so that callers compare what they hold (a string's UTF-8, a buffer)
/// without copying it into arrays first; public and inlinable so that it is specialised for them
/// (why: `ExpiringCache`).
public enum ConstantTime {
    @inlinable package static func equals(_ lhs: some Collection<UInt8>, _ rhs: some Collection<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for (left, right) in zip(lhs, rhs) { difference |= left ^ right }
        return difference == 0
    }
}
