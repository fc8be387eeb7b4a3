import Foundation

/// One `Range: bytes=…` of a file of `size` bytes (RFC 9110 §14.1.2): `a-b`, `a-` or `-n`.
/// Several ranges, other units or malformed values are not a range (the whole file is answered,
/// as the RFC allows); a range past the end is unsatisfiable (416).
package enum ByteRange: Equatable, Sendable {
    case whole
    case part(ClosedRange<Int>)
    case unsatisfiable

    package init(header: String?, size: Int) {
        guard let header, header.hasPrefix("bytes="), !header.contains(",") else {
            self = .whole
            return
        }
        let spec = header.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        let bounds = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard bounds.count == 2 else {
            self = .whole
            return
        }
        switch (Int(bounds[0]), Int(bounds[1]), bounds[0].isEmpty, bounds[1].isEmpty) {
        case (let first?, let last?, _, _) where first >= 0 && last >= first:
            self = first < size ? .part(first...min(last, size - 1)) : .unsatisfiable
        case (let first?, nil, _, true) where first >= 0:
            self = first < size ? .part(first...(size - 1)) : .unsatisfiable
        case (nil, let suffix?, true, _) where suffix > 0:
            self = size > 0 ? .part(max(0, size - suffix)...(size - 1)) : .unsatisfiable
        default:
            self = .whole
        }
    }
}
