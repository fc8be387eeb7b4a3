// Header names compared without case, as HTTP's are, on every request of the byte fronts:
// public and inlinable so that the gateway's and the services' calls are specialised (why in
// ARCHITECTURE, "Rules the code keeps").

extension String {
    /// The string's bytes, read in place. `withUTF8` is mutating, so calling it on a parameter
    /// copied the string first, which retained and released its storage: a few dozen times per
    /// request the gateway forwards (header names compared, fields written).
    @inlinable public func withBorrowedUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return try copy.withUTF8(body)
    }

    /// `lowercase` must be lowercase ASCII.
    @inlinable public func isASCII(caseInsensitivelyEqualTo lowercase: String) -> Bool {
        utf8.isASCII(caseInsensitivelyEqualTo: lowercase)
    }

    /// `lowercase` must be lowercase ASCII.
    @inlinable public func hasASCIIPrefix(caseInsensitively lowercase: String) -> Bool {
        utf8.hasASCIIPrefix(caseInsensitively: lowercase)
    }
}

/// The same on bytes (names read from the wire: the gateway's `UpstreamHead`).
extension Collection<UInt8> {
    /// `lowercase` must be lowercase ASCII.
    @inlinable public func isASCII(caseInsensitivelyEqualTo lowercase: String) -> Bool {
        count == lowercase.utf8.count && hasASCIIPrefix(caseInsensitively: lowercase)
    }

    /// `lowercase` must be lowercase ASCII. The names compared against are literals, whose bytes
    /// are at hand: walked as a buffer, not through the string's iterator (a visible share of
    /// the gateway's own time when it was).
    @inlinable public func hasASCIIPrefix(caseInsensitively lowercase: String) -> Bool {
        lowercase.withBorrowedUTF8 { hasASCIIPrefix(caseInsensitively: $0) }
    }

    @inlinable func hasASCIIPrefix(caseInsensitively lowercase: some Collection<UInt8>) -> Bool {
        var own = makeIterator()
        for expected in lowercase {
            guard let byte = own.next() else { return false }
            let folded = (65...90).contains(byte) ? byte | 0x20 : byte
            if folded != expected { return false }
        }
        return true
    }

    /// Whether `lowercase` (lowercase ASCII) is anywhere in it, any case.
    @inlinable public func containsASCII(caseInsensitively lowercase: String) -> Bool {
        var rest = self[...]
        while !rest.isEmpty {
            if rest.hasASCIIPrefix(caseInsensitively: lowercase) { return true }
            rest = rest.dropFirst()
        }
        return false
    }
}
