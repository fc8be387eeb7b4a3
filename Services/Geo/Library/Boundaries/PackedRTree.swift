/// A static R-tree over boxes, packed bottom-up by Sort-Tile-Recursive: built once from the
/// boundary polygons, then read by every request without locks.
struct PackedRTree: Sendable {
    struct Box: Sendable {
        var minX: Double, minY: Double, maxX: Double, maxY: Double

        func contains(x: Double, y: Double) -> Bool { minX <= x && x <= maxX && minY <= y && y <= maxY }

        func union(_ other: Box) -> Box {
            Box(minX: min(minX, other.minX), minY: min(minY, other.minY), maxX: max(maxX, other.maxX), maxY: max(maxY, other.maxY))
        }
    }

    static let nodeSize = 16

    /// Entries level by level: the items first (in packed order), the root last.
    private let boxes: [Box]
    /// Items: the item's index; nodes: their first child's position.
    private let links: [Int]
    /// The end of each level in `boxes`.
    private let levelEnds: [Int]

    init(_ items: [Box]) {
        var order = Array(items.indices)
        if items.count > Self.nodeSize {
            // Vertical slices by centre x, each sorted by centre y.
            let leaves = (items.count + Self.nodeSize - 1) / Self.nodeSize
            let perSlice = Int(Double(leaves).squareRoot().rounded(.up)) * Self.nodeSize
            order.sort { items[$0].minX + items[$0].maxX < items[$1].minX + items[$1].maxX }
            order = stride(from: 0, to: order.count, by: perSlice).flatMap { start in
                order[start..<min(start + perSlice, order.count)].sorted { items[$0].minY + items[$0].maxY < items[$1].minY + items[$1].maxY }
            }
        }
        var boxes = order.map { items[$0] }
        var links = order
        var levelEnds = [boxes.count]
        var start = 0
        while boxes.count - start > 1 {
            let end = boxes.count
            for first in stride(from: start, to: end, by: Self.nodeSize) {
                boxes.append(boxes[first..<min(first + Self.nodeSize, end)].dropFirst().reduce(boxes[first]) { $0.union($1) })
                links.append(first)
            }
            start = end
            levelEnds.append(boxes.count)
        }
        (self.boxes, self.links, self.levelEnds) = (boxes, links, levelEnds)
    }

    /// Calls `visit` with the index of every item whose box contains the point.
    func search(x: Double, y: Double, _ visit: (Int) -> Void) {
        guard !boxes.isEmpty else { return }
        var stack = [(position: boxes.count - 1, level: levelEnds.count - 1)]
        while let (position, level) = stack.popLast() {
            guard boxes[position].contains(x: x, y: y) else { continue }
            if level == 0 {
                visit(links[position])
            } else {
                let first = links[position]
                for child in first..<min(first + Self.nodeSize, levelEnds[level - 1]) { stack.append((child, level - 1)) }
            }
        }
    }
}
