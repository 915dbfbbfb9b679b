import Foundation
import NotifierKit
import Synchronization

/// Virtual time for the notifier: `sleep` suspends until the test advances the clock past its
/// deadline (or returns at once, advancing time, in `autoAdvance` mode). Records every wait.
final class VirtualClock: NotifierClock {
    private struct Sleeper {
        var id: Int
        var deadline: Double
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Double
        var nextID = 0
        var sleepers: [Sleeper] = []
        var sleeps: [Double] = []
        var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state: Mutex<State>
    let autoAdvance: Bool
    let draw: Double

    init(now: Double = 1_800_000_000, autoAdvance: Bool = false, random: Double = 0.5) {
        state = Mutex(State(now: now))
        self.autoAdvance = autoAdvance
        self.draw = random
    }

    func now() -> Double { state.withLock { $0.now } }
    func random() -> Double { draw }

    /// Every wait requested so far, in order.
    var sleeps: [Double] { state.withLock { $0.sleeps } }

    func sleep(seconds: Double) async throws {
        try Task.checkCancellation()
        if autoAdvance {
            state.withLock { $0.now += seconds; $0.sleeps.append(seconds) }
            return
        }
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                    state.sleeps.append(seconds)
                    state.sleepers.append(Sleeper(id: id, deadline: state.now + seconds, continuation: continuation))
                    let count = state.sleepers.count
                    let ready = state.watchers.filter { $0.count <= count }.map(\.continuation)
                    state.watchers.removeAll { $0.count <= count }
                    return ready
                }
                ready.forEach { $0.resume() }
                if Task.isCancelled { cancel(id) }
            }
        } onCancel: {
            cancel(id)
        }
    }

    private func cancel(_ id: Int) {
        let sleeper = state.withLock { state -> Sleeper? in
            guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
            return state.sleepers.remove(at: index)
        }
        sleeper?.continuation.resume(throwing: CancellationError())
    }

    /// Moves time forward and wakes every sleeper whose deadline has passed.
    func advance(by seconds: Double) {
        let due = state.withLock { state -> [Sleeper] in
            state.now += seconds
            let due = state.sleepers.filter { $0.deadline <= state.now }
            state.sleepers.removeAll { $0.deadline <= state.now }
            return due
        }
        due.forEach { $0.continuation.resume() }
    }

    /// Returns once at least `count` tasks are asleep on this clock (awaited, not polled).
    func waitForSleepers(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Bool in
                if state.sleepers.count >= count { return true }
                state.watchers.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
