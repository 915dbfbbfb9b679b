import Clocks
import Synchronization

/// Manual time for code generic over `Clock<Duration>` (its instants are swift-clocks'
/// `TestClock` instants), with the two things a test needs to stay in step with it:
/// ``waitForSleeper(until:)`` (the code under test is now asleep) and an ``advance(by:)`` that
/// returns only once every sleeper it made due has woken.
///
/// It keeps its own sleepers instead of wrapping `TestClock`, whose `advance` waits for woken
/// sleepers with `Task.megaYield()`: twenty detached background-priority tasks per step. At the
/// start of a full parallel run on two cores those tasks starve behind everything else, and a
/// test's advance stalled for more than 20 s (the Gemini rate-limit test, twice in CI). Here a
/// sleeper is known from the moment it asks, and `advance` wakes the due ones in deadline order,
/// each awaited until its `sleep` has returned, with no yielding heuristics.
public final class ObservedTestClock: Clock, Sendable {
    public typealias Instant = TestClock<Duration>.Instant

    private struct Sleeper {
        var deadline: Instant
        /// nil until the sleeping task has parked (it is registered before it suspends).
        var continuation: CheckedContinuation<Void, any Error>?
    }

    private struct State {
        var now = Instant()
        /// Every sleep asked for and not yet returned, parked or about to park.
        var asleep: [UInt64: Sleeper] = [:]
        /// Sleeps `advance` resumed whose tasks have not yet returned from `sleep`.
        var waking: Set<UInt64> = []
        var nextID: UInt64 = 0
        /// nil: any deadline.
        var watchers = ParkedWaiters<Instant?>()
        var wakeWaiters = ParkedWaiters<UInt64>()
    }

    private let state = Mutex(State())

    public init() {}

    public var now: Instant { state.withLock { $0.now } }
    public var minimumResolution: Duration { .zero }
    /// Time since the clock was made.
    public var elapsed: Duration { Instant().duration(to: now) }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id: UInt64? = state.withLock { state in
            guard deadline > state.now else { return nil }
            defer { state.nextID += 1 }
            state.asleep[state.nextID] = Sleeper(deadline: deadline)
            return state.nextID
        }
        guard let id else { return try Task.checkCancellation() }
        state.withLock { $0.watchers.release { $0 == nil || $0 == deadline } }.forEach { $0.resume() }
        defer {
            let woken = state.withLock { state in
                state.asleep.removeValue(forKey: id)
                state.waking.remove(id)
                return state.wakeWaiters.release { $0 == id }
            }
            woken.forEach { $0.resume() }
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = state.withLock { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    // `advance` may have passed the deadline between registering and parking.
                    guard state.asleep[id] != nil, !state.waking.contains(id) else { return .success(()) }
                    state.asleep[id]?.continuation = continuation
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let parked = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard !state.waking.contains(id) else { return nil }
                defer { state.asleep[id]?.continuation = nil }
                return state.asleep[id]?.continuation
            }
            parked?.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward and returns once every sleeper whose deadline has come is awake: the
    /// due sleepers wake one at a time in deadline order, time standing at each one's deadline.
    public func advance(by duration: Duration) async {
        let target = now.advanced(by: duration)
        while let id = wakeNextSleeper(dueBy: target) {
            await state.wait(until: id, parkedIn: \.wakeWaiters) { !$0.waking.contains(id) }
        }
    }

    /// Moves time to the earliest sleeper due by `target` and resumes it (its id), or to `target`
    /// itself when none is due (nil).
    private func wakeNextSleeper(dueBy target: Instant) -> UInt64? {
        let (id, continuation) = state.withLock { state -> (UInt64?, CheckedContinuation<Void, any Error>?) in
            let due = state.asleep.filter { $0.value.deadline <= target && !state.waking.contains($0.key) }
            guard let next = due.min(by: { $0.value.deadline < $1.value.deadline }) else {
                state.now = max(state.now, target)
                return (nil, nil)
            }
            state.now = max(state.now, next.value.deadline)
            state.waking.insert(next.key)
            // Not parked yet: it sees itself waking when it parks and returns at once.
            return (next.key, next.value.continuation)
        }
        continuation?.resume()
        return id
    }

    /// Returns once something sleeps until exactly `deadline` (at once if something already does).
    public func waitForSleeper(until deadline: Instant) async { await wait(for: deadline) }

    /// Returns once anything sleeps on this clock (at once if something already does).
    public func waitForSleeper() async { await wait(for: nil) }

    private func wait(for deadline: Instant?) async {
        await state.wait(until: deadline, parkedIn: \.watchers) { state in
            state.asleep.values.contains { deadline == nil || $0.deadline == deadline }
        }
    }
}
