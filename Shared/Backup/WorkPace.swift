import Foundation

/// Work over large byte runs done a megabyte at a time, resting after each slice as long as
/// the slice took times (1 / `share` − 1), so the work keeps to `share` of one core: a
/// snapshot's digests and compression while the suite serves on the same few cores. Rests
/// spread what a snapshot costs the services' answers thin, where a burst of it showed in
/// their p99; a lower scheduling priority (`nice`) did not.
package struct WorkPace: Sendable {
    package static let sliceBytes = 1 << 20
    package static let unpaced = WorkPace(share: 1)

    /// The part of one core the work may take, in (0, 1].
    package var share: Double

    package init(share: Double) {
        self.share = min(max(share, 0.01), 1)
    }

    /// Each piece to `body` in slices of at most `sliceBytes`, in order, resting after each.
    package func each(_ pieces: [Data], _ body: (Data) throws -> Void) rethrows {
        for piece in pieces {
            var start = piece.startIndex
            while start < piece.endIndex {
                let end = min(start + Self.sliceBytes, piece.endIndex)
                let began = ContinuousClock.now
                try body(piece[start..<end])
                rest(after: ContinuousClock.now - began)
                start = end
            }
        }
    }

    private func rest(after worked: Duration) {
        guard share < 1 else { return }
        let seconds = Double(worked.components.seconds) + Double(worked.components.attoseconds) / 1e18
        Thread.sleep(forTimeInterval: seconds * (1 / share - 1))
    }
}
