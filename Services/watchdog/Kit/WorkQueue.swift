import Synchronization

/// Hands work to one consumer task a batch at a time: producers never block, and the consumer
/// takes everything pending per wake-up (one SQLite transaction per batch). `poke()` wakes the
/// consumer with an empty batch (a timer came due).
final class WorkQueue<Element: Sendable>: Sendable {
    private struct State {
        var pending: [Element] = []
        var poked = false
        var finished = false
        var waiter: CheckedContinuation<[Element]?, Never>?
    }

    private let state = Mutex(State())

    /// Returns false when the queue is finished and the elements were dropped.
    @discardableResult
    func append(contentsOf elements: [Element]) -> Bool {
        guard !elements.isEmpty else { return true }
        let (taken, waiter) = state.withLock { state -> (Bool, CheckedContinuation<[Element]?, Never>?) in
            guard !state.finished else { return (false, nil) }
            state.pending.append(contentsOf: elements)
            return (true, takeWaiter(&state))
        }
        resume(waiter)
        return taken
    }

    func poke() {
        let waiter = state.withLock { state -> CheckedContinuation<[Element]?, Never>? in
            state.poked = true
            return takeWaiter(&state)
        }
        resume(waiter)
    }

    /// Ends the consumer's loop once what is pending has been taken.
    func finish() {
        let waiter = state.withLock { state -> CheckedContinuation<[Element]?, Never>? in
            state.finished = true
            return takeWaiter(&state)
        }
        resume(waiter)
    }

    var pendingCount: Int { state.withLock { $0.pending.count } }

    /// Everything pending (empty after a poke), waiting if there is nothing; nil once finished.
    func next() async -> [Element]? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<[Element]?, Never>) in
                let ready: [Element]?? = state.withLock { state in
                    if let batch = takeBatch(&state) { return .some(batch) }
                    if state.finished || Task.isCancelled { return .some(nil) }
                    state.waiter = continuation
                    return .none
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            finish()
        }
    }

    private func takeWaiter(_ state: inout State) -> CheckedContinuation<[Element]?, Never>? {
        defer { state.waiter = nil }
        return state.waiter
    }

    private func resume(_ waiter: CheckedContinuation<[Element]?, Never>?) {
        guard let waiter else { return }
        let batch = state.withLock { state -> [Element]? in takeBatch(&state) }
        waiter.resume(returning: batch)
    }

    private func takeBatch(_ state: inout State) -> [Element]? {
        if !state.pending.isEmpty || state.poked {
            defer { state.pending.removeAll(keepingCapacity: true); state.poked = false }
            return state.pending
        }
        return nil
    }
}
