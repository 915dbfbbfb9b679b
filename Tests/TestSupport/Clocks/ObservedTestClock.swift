import Clocks
import Synchronization

/// swift-clocks' `TestClock`, for code generic over `Clock<Duration>`, plus the two things a test
/// needs to stay in step with it: ``waitForSleeper(until:)`` (the code under test is now asleep)
/// and an ``advance(by:)`` that returns only once every sleeper it made due has woken.
///
/// `TestClock` alone relies on `Task.megaYield()` for both. That is not enough when the sleeper
/// first waits for something off the cooperative pool (an HTTP answer from a fake server on NIO's
/// threads): the test can advance before the sleep begins, and the sleeper then sleeps past its
/// deadline for good. Here a sleep is known from the moment it is asked for, and `advance` repeats
/// `TestClock.advance(to:)` until every sleep due by then has returned.
public final class ObservedTestClock: Clock, Sendable {
    public typealias Instant = TestClock<Duration>.Instant

    private struct State {
        var asleep: [UInt64: Instant] = [:]
        var nextID: UInt64 = 0
        /// nil: any deadline.
        var watchers = ParkedWaiters<Instant?>()
    }

    private let base = TestClock<Duration>()
    private let state = Mutex(State())

    public init() {}

    public var now: Instant { base.now }
    public var minimumResolution: Duration { .zero }
    /// Time since the clock was made.
    public var elapsed: Duration { Instant().duration(to: base.now) }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        guard deadline > base.now else { return try Task.checkCancellation() }
        let (id, watchers) = state.withLock { state in
            defer { state.nextID += 1 }
            state.asleep[state.nextID] = deadline
            return (state.nextID, state.watchers.release { $0 == nil || $0 == deadline })
        }
        watchers.forEach { $0.resume() }
        defer { state.withLock { _ = $0.asleep.removeValue(forKey: id) } }
        try await base.sleep(until: deadline, tolerance: tolerance)
    }

    /// Moves time forward and returns once every sleeper whose deadline has come is awake.
    public func advance(by duration: Duration) async {
        let target = base.now.advanced(by: duration)
        await base.advance(to: target)
        // A sleep asked for just before the clock moved may have reached TestClock only after it
        // looked (TestClock keeps a sleep until exactly `now` for the next advance): again.
        while state.withLock({ $0.asleep.values.contains { $0 <= target } }) {
            await base.advance(to: target)
        }
    }

    /// Returns once something sleeps until exactly `deadline` (at once if something already does).
    public func waitForSleeper(until deadline: Instant) async { await wait(for: deadline) }

    /// Returns once anything sleeps on this clock (at once if something already does).
    public func waitForSleeper() async { await wait(for: nil) }

    private func wait(for deadline: Instant?) async {
        await state.wait(until: deadline, parkedIn: \.watchers) { state in
            state.asleep.values.contains { deadline == nil || $0 == deadline }
        }
    }
}
