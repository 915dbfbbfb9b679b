import SafeWalkCore

/// Walkers ordered by last use, so the least recently used one is found without scanning every
/// lane: a binary min-heap of (tick, walker) with lazy invalidation. A newer use pushes a new
/// entry; an entry whose tick no longer matches its lane is stale and skipped by the caller.
/// `compact(keeping:)` rebuilds it when stale entries pile up, so memory stays O(lanes).
struct UsageHeap {
    struct Entry { var tick: UInt64; var walker: WalkerID }
    private var entries: [Entry] = []

    var count: Int { entries.count }

    mutating func push(_ tick: UInt64, _ walker: WalkerID) {
        entries.append(Entry(tick: tick, walker: walker))
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].tick < entries[parent].tick else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    mutating func popMin() -> Entry? {
        guard let first = entries.first else { return nil }
        let last = entries.removeLast()
        guard !entries.isEmpty else { return first }
        entries[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < entries.count, entries[left].tick < entries[smallest].tick { smallest = left }
            if right < entries.count, entries[right].tick < entries[smallest].tick { smallest = right }
            guard smallest != parent else { break }
            entries.swapAt(parent, smallest)
            parent = smallest
        }
        return first
    }

    /// Replaces the heap with exactly `live` (one entry per lane).
    mutating func compact(keeping live: [Entry]) {
        entries = []
        entries.reserveCapacity(live.count)
        for entry in live.sorted(by: { $0.tick < $1.tick }) { entries.append(entry) }  // sorted is a valid heap
    }
}
