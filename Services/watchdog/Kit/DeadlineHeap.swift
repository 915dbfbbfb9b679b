import SafeWalkCore

/// A binary min-heap of `(deadline, walker, generation)`. Rescheduling a walker pushes a new
/// entry with a new generation instead of searching the heap; entries whose generation is no
/// longer the walker's are skipped when they reach the top (lazy invalidation).
struct DeadlineHeap {
    struct Entry {
        var at: EpochSeconds
        var generation: UInt32
        var walker: WalkerID
    }

    private(set) var entries: [Entry] = []

    var count: Int { entries.count }
    var top: Entry? { entries.first }

    mutating func reserve(_ capacity: Int) { entries.reserveCapacity(capacity) }

    mutating func push(_ entry: Entry) {
        entries.append(entry)
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].at < entries[parent].at else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    @discardableResult
    mutating func pop() -> Entry? {
        guard !entries.isEmpty else { return nil }
        let first = entries[0]
        let last = entries.removeLast()
        if !entries.isEmpty {
            entries[0] = last
            siftDown(0)
        }
        return first
    }

    /// Replaces the contents with `live` and restores the heap property in O(n).
    mutating func rebuild(_ live: [Entry]) {
        entries = live
        var index = entries.count / 2
        while index > 0 {
            index -= 1
            siftDown(index)
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        let count = entries.count
        while true {
            let left = 2 * parent + 1
            guard left < count else { return }
            var smallest = left
            let right = left + 1
            if right < count, entries[right].at < entries[left].at { smallest = right }
            guard entries[smallest].at < entries[parent].at else { return }
            entries.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
