import TestSupport
import Synchronization

/// A clock that moves only when a test calls `advance(by:)`. Sleepers wake when the clock
/// reaches their deadline (or at once if it already has); cancellation wakes them with
/// `CancellationError`. Tests can await the moment something starts sleeping.
final class ManualClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration

        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        var id: UInt64
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Sleeper] = []
        var cancelled: Set<UInt64> = []
        var nextID: UInt64 = 0
        var watchers = ParkedWaiters<Instant>()
    }

    private let state = Mutex(State())

    var now: Instant { state.withLock { $0.now } }
    var minimumResolution: Duration { .zero }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = state.withLock { state in
                    if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    if deadline <= state.now { return .success(()) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    state.watchers.release { $0 == deadline }.forEach { $0.resume() }
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let sleeper: Sleeper? = state.withLock { state in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward and wakes every sleeper whose deadline has come.
    func advance(by duration: Duration) {
        let due: [Sleeper] = state.withLock { state in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let (due, waiting) = split(state.sleepers) { $0.deadline <= now }
            state.sleepers = waiting
            return due
        }
        due.forEach { $0.continuation.resume() }
    }

    /// Returns once something sleeps until exactly `deadline` (at once if something already does).
    func waitForSleeper(until deadline: Instant) async {
        let id = state.withLock { $0.watchers.makeID() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state in
                    state.sleepers.contains { $0.deadline == deadline } || !state.watchers.park(id, until: deadline, continuation)
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.watchers.cancel(id) }?.resume()
        }
    }

    /// Deadlines of everything sleeping now.
    var sleeperDeadlines: [Instant] { state.withLock { $0.sleepers.map(\.deadline) } }
}

private func split<T>(_ items: [T], _ isDue: (T) -> Bool) -> (due: [T], rest: [T]) {
    var due: [T] = []
    var rest: [T] = []
    for item in items {
        if isDue(item) { due.append(item) } else { rest.append(item) }
    }
    return (due, rest)
}
