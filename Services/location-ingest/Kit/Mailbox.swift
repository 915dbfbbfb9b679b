import Synchronization

/// Hands work from producers to ONE consumer task, merging whatever piles up while the
/// consumer is busy (so a slow stage works on bigger batches instead of falling further
/// behind). Never blocks a producer; `finish()` ends the consumer's loop once it has drained.
final class Mailbox<Value: Sendable>: Sendable {
    private struct State {
        var pending: Value?
        var waiter: CheckedContinuation<Value?, Never>?
        var finished = false
    }

    private let state = Mutex(State())
    private let merge: @Sendable (inout Value, Value) -> Void

    init(merge: @escaping @Sendable (inout Value, Value) -> Void) {
        self.merge = merge
    }

    func offer(_ value: Value) {
        let waiter: CheckedContinuation<Value?, Never>? = state.withLock { state in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            if state.pending == nil { state.pending = value } else { merge(&state.pending!, value) }
            return nil
        }
        waiter?.resume(returning: value)
    }

    /// Everything offered since the last call, merged; nil once finished and drained.
    func take() async -> Value? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
            let ready: Value?? = state.withLock { state in
                if let pending = state.pending {
                    state.pending = nil
                    return .some(pending)
                }
                if state.finished { return .some(nil) }
                precondition(state.waiter == nil, "a mailbox has exactly one consumer")
                state.waiter = continuation
                return .none
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Whether `finish()` was called.
    var isFinished: Bool { state.withLock { $0.finished } }

    func finish() {
        let waiter = state.withLock { state in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }
}

extension Mailbox {
    /// The consumer's loop: hands `body` everything merged since its previous call, then rests
    /// until `interval` after that call began, so that under load whatever arrives meanwhile is
    /// merged into the next call (at most one call per interval); when idle the next value is
    /// handled as soon as it comes. Cancellation only skips the rests: the mailbox still drains.
    func consume<C: Clock>(
        pacedBy interval: Duration, on clock: C,
        _ body: (Value) async -> Void
    ) async where C.Duration == Duration {
        while let value = await take() {
            let next = clock.now.advanced(by: interval)
            await body(value)
            if interval > .zero { try? await clock.sleep(until: next, tolerance: nil) }
        }
    }
}
