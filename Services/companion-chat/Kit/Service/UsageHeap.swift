import HeapModule
import SafeWalkCore

/// Walkers ordered by last use, so the least recently used one is found without scanning every
/// lane: swift-collections' `Heap` of (tick, walker) with lazy invalidation. A newer use pushes a
/// new entry; an entry whose tick no longer matches its lane is stale and skipped by the caller.
/// `compact(keeping:)` rebuilds it when stale entries pile up, so memory stays O(lanes).
struct UsageHeap {
    struct Entry: Comparable {
        var tick: UInt64
        var walker: WalkerID

        /// Only the tick orders entries.
        static func < (lhs: Entry, rhs: Entry) -> Bool { lhs.tick < rhs.tick }
        static func == (lhs: Entry, rhs: Entry) -> Bool { lhs.tick == rhs.tick }
    }

    private var heap = Heap<Entry>()

    var count: Int { heap.count }

    mutating func push(_ tick: UInt64, _ walker: WalkerID) { heap.insert(Entry(tick: tick, walker: walker)) }

    mutating func popMin() -> Entry? { heap.popMin() }

    /// Replaces the heap with exactly `live` (one entry per lane), heapified in O(n).
    mutating func compact(keeping live: [Entry]) { heap = Heap(live) }
}
