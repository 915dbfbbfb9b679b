import HeapModule
import SafeWalkCore

/// A min-heap of `(deadline, walker, generation)`: swift-collections' `Heap` ordered by deadline.
/// Rescheduling a walker pushes a new entry with a new generation instead of searching the heap;
/// entries whose generation is no longer the walker's are skipped when they reach the top (lazy
/// invalidation).
struct DeadlineHeap {
    struct Entry {
        var at: EpochSeconds
        var generation: UInt32
        var walker: WalkerID
    }

    /// `Heap` needs `Comparable`; only the deadline orders entries (and ties are unordered).
    private struct ByDeadline: Comparable {
        var entry: Entry
        static func < (lhs: Self, rhs: Self) -> Bool { lhs.entry.at < rhs.entry.at }
        static func == (lhs: Self, rhs: Self) -> Bool { lhs.entry.at == rhs.entry.at }
    }

    private var heap = Heap<ByDeadline>()

    var count: Int { heap.count }
    var top: Entry? { heap.min?.entry }

    mutating func reserve(_ capacity: Int) { heap.reserveCapacity(capacity) }

    mutating func push(_ entry: Entry) { heap.insert(ByDeadline(entry: entry)) }

    @discardableResult
    mutating func pop() -> Entry? { heap.popMin()?.entry }

    /// Replaces the contents with `live`, heapified in O(n).
    mutating func rebuild(_ live: [Entry]) { heap = Heap(live.lazy.map(ByDeadline.init)) }
}
