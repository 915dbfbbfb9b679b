import SafeWalkCore
import Synchronization

/// Manual time in seconds since 1970, for the clocks that speak epoch seconds (the watchdog's
/// `WatchClock`, the notifier's `NotifierClock`, the CLI's `SimulationClock`: each test target
/// declares the conformance it needs). Time moves only when a test calls `advance`; sleepers whose
/// deadline has come then wake, and cancellation wakes them with `CancellationError`. Code generic
/// over `Clock<Duration>` is tested with ``ObservedTestClock`` instead.
public final class EpochClock: Sendable {
    private struct Sleeper {
        var deadline: EpochSeconds
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: EpochSeconds
        var sleepers: [UInt64: Sleeper] = [:]
        var nextID: UInt64 = 0
        var sleeps: [Double] = []
        var watchers = ParkedWaiters<Int>()
    }

    private let state: Mutex<State>
    /// `sleep(seconds:)` moves time on by the wait and returns at once (for retry schedules).
    public let autoAdvance: Bool
    private let draw: Double

    /// - Parameter random: what ``random()`` returns every time (a fixed jitter draw).
    public init(now: EpochSeconds, autoAdvance: Bool = false, random: Double = 0.5) {
        state = Mutex(State(now: now))
        self.autoAdvance = autoAdvance
        draw = random
    }

    public func now() -> EpochSeconds { state.withLock { $0.now } }

    /// A fixed draw in 0..<1, for code that jitters its waits.
    public func random() -> Double { draw }

    /// Every `sleep(seconds:)` requested so far, in order.
    public var sleeps: [Double] { state.withLock { $0.sleeps } }

    /// Returns once time reaches `deadline` (at once if it already has).
    public func sleep(until deadline: EpochSeconds) async throws {
        try await suspend { _ in deadline }
    }

    /// Waits `seconds` of this clock's time; recorded in ``sleeps``.
    public func sleep(seconds: Double) async throws {
        guard autoAdvance else {
            return try await suspend { state in
                state.sleeps.append(seconds)
                return state.now + seconds
            }
        }
        try Task.checkCancellation()
        state.withLock { state in
            state.sleeps.append(seconds)
            state.now += max(0, seconds)
        }
    }

    /// Moves time to `time` (never back) and wakes every sleeper whose deadline has come.
    public func advance(to time: EpochSeconds) { move { max($0, time) } }

    /// Moves time forward and wakes every sleeper whose deadline has come.
    public func advance(by seconds: Double) { move { $0 + seconds } }

    /// Returns once at least `count` tasks are asleep on this clock (awaited, not polled).
    public func waitForSleepers(_ count: Int) async {
        await state.wait(until: count, parkedIn: \.watchers) { $0.sleepers.count >= count }
    }

    private func move(_ time: (EpochSeconds) -> EpochSeconds) {
        let due = state.withLock { state -> [Sleeper] in
            state.now = time(state.now)
            let now = state.now
            let due = state.sleepers.filter { $0.value.deadline <= now }
            for id in due.keys { state.sleepers.removeValue(forKey: id) }
            return due.values.sorted { $0.deadline < $1.deadline }
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Sleeps until the deadline `register` computes under the lock (so no `advance` can slip in
    /// between reading the time and sleeping).
    private func suspend(until register: (inout State) -> EpochSeconds) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (outcome, watchers) = state.withLock {
                    state -> (Result<Void, any Error>?, [CheckedContinuation<Void, Never>]) in
                    if Task.isCancelled { return (.failure(CancellationError()), []) }
                    let deadline = register(&state)
                    if deadline <= state.now { return (.success(()), []) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    let asleep = state.sleepers.count
                    return (nil, state.watchers.release { $0 <= asleep })
                }
                if let outcome { continuation.resume(with: outcome) }
                watchers.forEach { $0.resume() }
            }
        } onCancel: {
            state.withLock { $0.sleepers.removeValue(forKey: id) }?.continuation.resume(throwing: CancellationError())
        }
    }
}
