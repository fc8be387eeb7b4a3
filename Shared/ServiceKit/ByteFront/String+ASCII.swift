// Header names compared without case, as HTTP's are, on every request of the byte fronts:
// public and inlinable so that the gateway's and the services' calls are specialised (why in
// ARCHITECTURE, "Rules the code keeps").

extension String {
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

    /// `lowercase` must be lowercase ASCII.
    @inlinable public func hasASCIIPrefix(caseInsensitively lowercase: String) -> Bool {
        var own = makeIterator()
        for expected in lowercase.utf8 {
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
