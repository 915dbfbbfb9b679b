import SafeWalkCore

/// The outcome of one step for one walker, for the shell to persist and carry out.
public struct WatchStep: Sendable {
    public var watch: Watch
    public var actions: [WatchAction]
    /// Whether the watch changed and must be written before the actions take effect.
    public var changed: Bool
    /// Whether the change was only what a retained position restores (``PositionWrites``): the
    /// write may wait. Never true for a watch seen for the first time.
    public var canWait: Bool = false
}

/// Every walker's ``Watch`` plus one scheduler over all their deadlines. Synchronous and not
/// thread-safe: one task owns it. Timers are found by a heap keyed by deadline, never by
/// looking at every walker.
public struct WatchEngine: Sendable {
    struct Slot {
        var watch: Watch
        var generation: UInt32
        var wake: EpochSeconds?
    }

    public let machine: WatchMachine
    private var slots = WatchSlots<Slot>()
    private var heap = DeadlineHeap()

    public init(machine: WatchMachine) {
        self.machine = machine
    }

    public var count: Int { slots.count }
    /// Entries in the heap, live and stale (for benchmarks and tests of the invalidation).
    public var scheduledEntries: Int { heap.count }

    public func watch(for walker: WalkerID) -> Watch? { slots[walker]?.watch }

    public mutating func reserve(_ capacity: Int) {
        slots.reserveCapacity(capacity)
        heap.reserve(capacity)
    }

    /// Puts a watch loaded from storage back under watch. A deadline that already passed is
    /// simply due: the next ``fireDue(now:limit:)`` fires it.
    public mutating func restore(_ watch: Watch) {
        slots[watch.walker] = Slot(watch: watch, generation: 0, wake: nil)
        schedule(watch.walker)
    }

    /// Puts every watch loaded at start-up back under watch at once: one slot each, and the
    /// deadlines heapified together in O(n) instead of a million pushes of O(log n) each (the
    /// restore benchmark, Benchmarks/watchdog/RESULTS.md). Same outcome as ``restore(_:)`` per
    /// watch; a walker given twice keeps the later watch.
    public mutating func restore(all watches: [Watch]) {
        restoreAll(expecting: watches.count) { each in for watch in watches { each(watch) } }
    }

    /// ``restore(all:)`` for about `count` watches handed over one by one as `supply` reads them
    /// (from SQLite, ``WatchStore/restore(into:)``), so no array of a million watches is built,
    /// copied into the slots and released.
    public mutating func restoreAll(
        expecting count: Int, _ supply: (_ each: (consuming Watch) -> Void) throws -> Void
    ) rethrows {
        let wasEmpty = slots.isEmpty
        slots.reserveCapacity(slots.count + count)
        var entries: [DeadlineHeap.Entry] = []
        entries.reserveCapacity(count)
        var replaced = false
        try supply { watch in
            // Moved, never copied, from the caller's hands into its slot: a slot is ~480 bytes
            // and a million copies of it were a tenth of the restore.
            let wake = machine.nextWake(watch)
            let walker = watch.walker
            if let wake { entries.append(.init(at: wake, generation: 0, walker: walker)) }
            if slots.updateValue(Slot(watch: watch, generation: 0, wake: wake), forKey: walker) != nil {
                replaced = true
            }
        }
        // Entries made on the way are the heap as it must be unless some walker already had a slot
        // (then its older entry, or an earlier copy's, must not stay live): rebuilt from the slots.
        if wasEmpty, !replaced { heap.rebuild(entries) } else { rebuildHeap() }
    }

    /// Credits a silence of the broker to every watch (``ClockCredit``): every deadline moves on
    /// by `seconds`. Returns the watches, all changed, for the shell to write.
    public mutating func credit(_ seconds: Double) -> [Watch] {
        var moved: [Watch] = []
        moved.reserveCapacity(slots.count)
        slots.modifyAll { slot in
            slot.watch = ClockCredit.moved(slot.watch, by: seconds)
            slot.wake = machine.nextWake(slot.watch)
            slot.generation &+= 1
            moved.append(slot.watch)
        }
        rebuildHeap()
        return moved
    }

    /// Forgets a walker: its watch and its deadline (the heap entry goes stale and never fires).
    public mutating func remove(_ walker: WalkerID) {
        slots.removeValue(forKey: walker)
        compactIfMostlyStale()
    }

    /// Applies one event for one walker.
    public mutating func handle(_ event: WatchEvent, for walker: WalkerID, now: EpochSeconds) -> WatchStep {
        let known = slots.contains(walker)
        let before = slots[walker]?.watch ?? WatchMachine.fresh(walker, now: now)
        let (after, actions) = machine.step(before, event, now: now)
        let changed = after != before || !known
        if changed {
            if known {
                slots.modify(walker) { $0.watch = after }
            } else {
                slots[walker] = Slot(watch: after, generation: 0, wake: nil)
            }
            schedule(walker)
        }
        let canWait = changed && known && PositionWrites.canWait(from: before, to: after)
        return WatchStep(watch: after, actions: actions, changed: changed, canWait: canWait)
    }

    /// Steps every walker whose deadline is at or before `now`, earliest first, at most `limit`.
    /// `upTo` (at most `now`) holds later deadlines back (``BrokerLink``): the walkers whose
    /// deadline it reaches are stepped at `now`.
    public mutating func fireDue(now: EpochSeconds, upTo: EpochSeconds? = nil, limit: Int = .max) -> [WatchStep] {
        let bound = min(now, upTo ?? now)
        var steps: [WatchStep] = []
        while steps.count < limit, let top = heap.top, top.at <= bound {
            heap.pop()
            guard let slot = slots[top.walker], slot.generation == top.generation else { continue }
            slots.modify(top.walker) { $0.wake = nil }
            let step = handle(.timer, for: top.walker, now: now)
            steps.append(step)
            // An unchanged watch was not rescheduled by `handle`; make sure it stays scheduled.
            if slots[top.walker]?.wake == nil { schedule(top.walker) }
            // A timer that changed nothing must not come straight back (the loop would spin):
            // the machine promises a later wake-up, but if it ever breaks that promise the walker
            // is retried a second later instead of hanging every other walker.
            if !step.changed, let wake = slots[top.walker]?.wake, wake <= now {
                let generation = slots.modify(top.walker) { slot in
                    slot.generation &+= 1
                    slot.wake = now + 1
                    return slot.generation
                }
                if let generation { heap.push(.init(at: now + 1, generation: generation, walker: top.walker)) }
            }
        }
        return steps
    }

    /// The earliest live deadline, dropping stale heap entries on the way.
    public mutating func nextDeadline() -> EpochSeconds? {
        while let top = heap.top {
            if let slot = slots[top.walker], slot.generation == top.generation { return top.at }
            heap.pop()
        }
        return nil
    }

    private mutating func schedule(_ walker: WalkerID) {
        guard var slot = slots[walker] else { return }
        let wake = machine.nextWake(slot.watch)
        if wake == slot.wake, wake != nil { return }  // the live entry already covers it
        slot.generation &+= 1
        slot.wake = wake
        slots[walker] = slot
        if let wake { heap.push(.init(at: wake, generation: slot.generation, walker: walker)) }
        compactIfMostlyStale()
    }

    /// Stale entries are dropped lazily; if they come to outnumber live ones, rebuild.
    private mutating func compactIfMostlyStale() {
        guard heap.count > 1024, heap.count > 3 * slots.count else { return }
        rebuildHeap()
    }

    /// The heap anew from the slots' live deadlines, heapified in O(n).
    private mutating func rebuildHeap() {
        let live = slots.compactMap { walker, slot in
            slot.wake.map { DeadlineHeap.Entry(at: $0, generation: slot.generation, walker: walker) }
        }
        heap.rebuild(live)
    }
}
