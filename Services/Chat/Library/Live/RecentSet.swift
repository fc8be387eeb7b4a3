/// The last `capacity` numbers inserted, for "seen already?" without growing for ever.
struct RecentSet {
    private var members: Set<Int64> = []
    /// A ring: the slot at `next` holds the oldest member once the ring is full.
    private var ring: [Int64] = []
    private var next = 0
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    func contains(_ value: Int64) -> Bool { members.contains(value) }

    mutating func insert(_ value: Int64) {
        guard members.insert(value).inserted else { return }
        if ring.count < capacity {
            ring.append(value)
            return
        }
        members.remove(ring[next])
        ring[next] = value
        next = (next + 1) % capacity
    }
}
