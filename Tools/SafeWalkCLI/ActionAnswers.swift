import SafeWalkCore
import SafeWalkMQTT
import Synchronization

/// The simulated device's inbox for `{w}/action/result` and `{w}/rejected`: it knows which
/// action ids this device sent, reports the first answer to each once, and lets the sender
/// wait for one. An answer is kept until the sender forgets the id, so an answer that arrives
/// while nobody is waiting (between a timeout and the next wait) is never lost.
public final class ActionAnswers: Sendable {
    private struct Entry {
        var action: Action
        var answer: ActionAnswer?
        var waiters: [UInt64: CheckedContinuation<ActionAnswer?, Never>] = [:]
    }

    private struct State {
        var entries: [String: Entry] = [:]
        /// Ids in the order sent, to drop the oldest beyond `capacity`.
        var order: [String] = []
        var nextWaiter: UInt64 = 0
        var subscriptions: [MQTTSubscription] = []
        var listener: Task<Void, Never>?
    }

    private let state = Mutex(State())
    /// Ids remembered at most: heartbeats are sent without being followed, and their entries
    /// would otherwise pile up for as long as the button is held.
    public let capacity: Int

    public init(capacity: Int = 64) {
        self.capacity = capacity
    }

    /// Subscribes to the walker's answers (before any action is published, so none is missed)
    /// and reports them through `events` until ``stop()``.
    public func listen(
        on bus: any MessageBus, walker: WalkerID, prefix: String,
        events: @escaping @Sendable (SimulationEvent) -> Void
    ) async throws {
        let results = try await bus.subscribe(Topic.actionResult(walker).name(prefix: prefix), qos: .atLeastOnce)
        let refusals = try await bus.subscribe(Topic.inputRejected(walker).name(prefix: prefix), qos: .atLeastOnce)
        let listener = Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await message in results {
                        guard let result = try? SafeWalkJSON.decode(ActionResult.self, from: message.payload) else {
                            continue
                        }
                        self.report(.result(result), events)
                    }
                }
                group.addTask {
                    for await message in refusals {
                        guard let refusal = try? SafeWalkJSON.decode(InputRefusal.self, from: message.payload) else {
                            continue
                        }
                        self.report(.refused(refusal), events)
                    }
                }
            }
        }
        state.withLock { state in
            state.subscriptions = [results, refusals]
            state.listener = listener
        }
    }

    /// Ends the subscriptions; answers arriving later are not reported.
    public func stop() {
        let (subscriptions, listener) = state.withLock { state in
            defer { (state.subscriptions, state.listener) = ([], nil) }
            return (state.subscriptions, state.listener)
        }
        for subscription in subscriptions { subscription.cancel() }
        listener?.cancel()
    }

    private func report(_ answer: ActionAnswer, _ events: @Sendable (SimulationEvent) -> Void) {
        if let action = deliver(answer) {
            events(.actionAnswered(action, answer))
        } else if case .refused(let refusal) = answer {
            // Not about an action of ours (a reply, a fix, …): still the device's business.
            events(.refused(refusal))
        }
        // A result for an unknown id answers a repeat already settled, or another device of
        // the same walker: not news.
    }

    /// Registers an action about to be published.
    public func expect(_ action: Action) {
        state.withLock { state in
            guard state.entries[action.id] == nil else { return }
            state.entries[action.id] = Entry(action: action)
            state.order.append(action.id)
            while state.order.count > capacity, let oldest = state.order.first {
                // Never drop an entry someone is waiting on.
                guard state.entries[oldest]?.waiters.isEmpty ?? true else { break }
                state.order.removeFirst()
                state.entries[oldest] = nil
            }
        }
    }

    /// Records an answer; returns the action when this is the first answer to one of ours.
    @discardableResult
    public func deliver(_ answer: ActionAnswer) -> Action? {
        guard let id = answer.id else { return nil }
        let (action, waiters) = state.withLock { state -> (Action?, [CheckedContinuation<ActionAnswer?, Never>]) in
            guard var entry = state.entries[id], entry.answer == nil else { return (nil, []) }
            entry.answer = answer
            let waiters = Array(entry.waiters.values)
            entry.waiters = [:]
            state.entries[id] = entry
            return (entry.action, waiters)
        }
        for waiter in waiters { waiter.resume(returning: answer) }
        return action
    }

    /// The answer to `id`: at once if it came, else when it comes; nil if the id is unknown or
    /// the task is cancelled.
    public func answer(for id: String) async -> ActionAnswer? {
        let waiter = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<ActionAnswer?, Never>) in
                let now: ActionAnswer?? = state.withLock { state in
                    guard !Task.isCancelled, var entry = state.entries[id] else { return .some(nil) }
                    if let answer = entry.answer { return .some(answer) }
                    entry.waiters[waiter] = continuation
                    state.entries[id] = entry
                    return .none
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            let continuation = state.withLock { $0.entries[id]?.waiters.removeValue(forKey: waiter) }
            continuation?.resume(returning: nil)
        }
    }

    /// Drops `id`: its action is settled (or given up), later answers to its repeats are noise.
    public func forget(_ id: String) {
        let waiters = state.withLock { state -> [CheckedContinuation<ActionAnswer?, Never>] in
            state.order.removeAll { $0 == id }
            return state.entries.removeValue(forKey: id).map { Array($0.waiters.values) } ?? []
        }
        for waiter in waiters { waiter.resume(returning: nil) }
    }
}
