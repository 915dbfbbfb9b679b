import DequeModule
import SafeWalkCore

/// Which watch changes may wait before SQLite sees them, and the queue of those that wait
/// (issue 22: a transaction and a 42-column row per fix were a third of the watchdog's work).
///
/// A fix changes `lastFix` and `timers.lastMovedAt`, and nothing else in most watches. Both come
/// back by themselves after a restart: location-ingest keeps each walker's newest position
/// retained on `{w}/position`, the broker hands it to the watchdog again when it subscribes at
/// start, and the machine takes it as the first time (the newer `tst` wins, movement only moves
/// forward). So such a change is written at most `delay` after it happened, many walkers in one
/// transaction; anything else an event changes (a pause ending, a walk's progress, every other
/// kind of event) is written before its effects, as always, and carries the position with it.
///
/// What a SIGKILL costs: until the retained position is read again, the watch restored has the
/// position and movement of up to `delay` ago. `delay` is kept well under `noMovementAfter`
/// (``effectiveDelay(_:noMovementAfter:)``), so that older movement cannot make a walker who
/// kept walking look still.
struct PositionWrites {
    /// At most this long between a position-only change and its write.
    let delay: Double
    /// At most this many rows per pass, so a backlog is written over several passes and no
    /// single commit holds the loop (and every deadline behind it) for long.
    let maxPerPass: Int
    private var since: [WalkerID: EpochSeconds] = [:]
    /// Walkers in the order their wait began; an entry whose walker was written since is skipped.
    private var order: Deque<(walker: WalkerID, since: EpochSeconds)> = []

    init(delay: Double, maxPerPass: Int = 2_000) {
        self.delay = delay
        self.maxPerPass = maxPerPass
    }

    /// The delay used: the configured one, but at most a quarter of `noMovementAfter`.
    static func effectiveDelay(_ configured: Double, noMovementAfter: Double) -> Double {
        max(0, min(configured, noMovementAfter / 4))
    }

    /// Whether the step from `before` to `after` changed only what a retained position restores.
    static func canWait(from before: Watch, to after: Watch) -> Bool {
        var positionOnly = before
        positionOnly.lastFix = after.lastFix
        positionOnly.timers.lastMovedAt = after.timers.lastMovedAt
        return positionOnly == after
    }

    var count: Int { since.count }

    /// A walker whose position changed; a walker already waiting keeps its place (the bound
    /// counts from the first change not written).
    mutating func wait(_ walker: WalkerID, now: EpochSeconds) {
        guard since[walker] == nil else { return }
        since[walker] = now
        order.append((walker, now))
    }

    /// The walker's whole watch is being written now: nothing of it waits any more.
    mutating func written(_ walker: WalkerID) {
        since[walker] = nil
    }

    /// When the oldest waiting change must be written, if any waits.
    mutating func dueAt() -> EpochSeconds? {
        dropWritten()
        return order.first.map { $0.since + delay }
    }

    /// The walkers whose wait is over at `now`, oldest first, at most ``maxPerPass``; or all of
    /// them with `all` (at shutdown).
    ///
    /// Once one wait is over, the waits that would end within the next half `delay` are taken
    /// with it: each walker is written a little early (never late), and their rows share one
    /// transaction. Without this, at walking pace every waiting walker came due at an instant of
    /// its own and was written alone: a commit of one row each, as if nothing waited.
    mutating func takeDue(now: EpochSeconds, all: Bool = false) -> [WalkerID] {
        dropWritten()
        guard all || (order.first.map { $0.since + delay <= now } ?? false) else { return [] }
        let horizon = now + delay / 2
        var due: [WalkerID] = []
        while all || due.count < maxPerPass, let first = order.first, all || first.since + delay <= horizon {
            order.removeFirst()
            guard since[first.walker] == first.since else { continue }
            since[first.walker] = nil
            due.append(first.walker)
        }
        return due
    }

    private mutating func dropWritten() {
        while let first = order.first, since[first.walker] != first.since { order.removeFirst() }
    }
}
