import SafeWalkCore

/// The engine's slots by walker, kept dense: the slots in one array exactly as long as the
/// walkers, and a dictionary from walker to position.
///
/// A dictionary of slots keeps a bucket of a slot's full size (about 480 bytes) for every bucket
/// it has, and it has up to twice as many buckets as walkers, spread so that every page of them
/// is touched: a million restored watches made 1.1 GB resident, and the page faults, not the
/// instructions, were most of the restore's wall time (BENCHMARKS.md, "Restoring 1,000,000
/// watches"). Here only an 8-byte position per bucket is spread out; the slots are written in
/// order, once each.
struct WatchSlots<Slot> {
    private var slots: [Slot] = []
    /// `keys[i]` is the walker of `slots[i]`, to mend the index when the last slot moves.
    private var keys: [WalkerID] = []
    private var positions: [WalkerID: Int] = [:]

    var count: Int { slots.count }
    var isEmpty: Bool { slots.isEmpty }

    mutating func reserveCapacity(_ capacity: Int) {
        slots.reserveCapacity(capacity)
        keys.reserveCapacity(capacity)
        positions.reserveCapacity(capacity)
    }

    func contains(_ walker: WalkerID) -> Bool { positions[walker] != nil }

    /// The walker's slot; setting nil removes it.
    subscript(walker: WalkerID) -> Slot? {
        get { positions[walker].map { slots[$0] } }
        set {
            if let newValue { updateValue(newValue, forKey: walker) } else { removeValue(forKey: walker) }
        }
    }

    /// Changes the walker's slot in place, if it has one (no copy of the slot out and back).
    @discardableResult
    mutating func modify<Result>(_ walker: WalkerID, _ body: (inout Slot) -> Result) -> Result? {
        guard let position = positions[walker] else { return nil }
        return body(&slots[position])
    }

    /// Sets the walker's slot; the one it replaces, if any.
    @discardableResult
    mutating func updateValue(_ slot: consuming Slot, forKey walker: WalkerID) -> Slot? {
        // One probe of the index for a new walker (a restore's every row): claim the next
        // position, and give it back in the rare case the walker was already there.
        if let position = positions.updateValue(slots.count, forKey: walker) {
            positions[walker] = position
            let replaced = slots[position]
            slots[position] = slot
            return replaced
        }
        slots.append(slot)
        keys.append(walker)
        return nil
    }

    /// Removes the walker's slot: the last slot takes its place.
    mutating func removeValue(forKey walker: WalkerID) {
        guard let position = positions.removeValue(forKey: walker) else { return }
        let last = slots.count - 1
        if position != last {
            slots.swapAt(position, last)
            keys.swapAt(position, last)
            positions[keys[position]] = position
        }
        slots.removeLast()
        keys.removeLast()
    }

    /// Changes every slot in place, in storage order.
    mutating func modifyAll(_ body: (inout Slot) -> Void) {
        for position in slots.indices { body(&slots[position]) }
    }

    /// `transform` of each walker and slot, nils left out, in storage order.
    func compactMap<T>(_ transform: (WalkerID, Slot) throws -> T?) rethrows -> [T] {
        var result: [T] = []
        result.reserveCapacity(slots.count)
        for position in slots.indices {
            if let value = try transform(keys[position], slots[position]) { result.append(value) }
        }
        return result
    }
}

extension WatchSlots: Sendable where Slot: Sendable {}
