import SafeWalkCore
import Synchronization
import WatchdogKit

/// A virtual clock for the service tests: time moves only when the test says so.
final class ManualClock: WatchClock {
    private struct Sleeper {
        var deadline: EpochSeconds
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: EpochSeconds
        var sleepers: [UInt64: Sleeper] = [:]
        var nextID: UInt64 = 0
    }

    private let state: Mutex<State>

    init(now: EpochSeconds = 1_700_000_000) {
        state = Mutex(State(now: now))
    }

    func now() -> EpochSeconds { state.withLock { $0.now } }

    func sleep(until deadline: EpochSeconds) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let immediate: Result<Void, any Error>? = state.withLock { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if deadline <= state.now { return .success(()) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return nil
                }
                if let immediate { continuation.resume(with: immediate) }
            }
        } onCancel: {
            state.withLock { $0.sleepers.removeValue(forKey: id) }?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward and wakes every sleeper whose deadline has come.
    func advance(to time: EpochSeconds) {
        let due = state.withLock { state -> [Sleeper] in
            state.now = max(state.now, time)
            let due = state.sleepers.filter { $0.value.deadline <= state.now }
            for key in due.keys { state.sleepers.removeValue(forKey: key) }
            return Array(due.values)
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    func advance(by seconds: Double) { advance(to: now() + seconds) }
}
