import Synchronization

/// Continuations parked until a condition holds, kept inside their owner's lock. Cancellation
/// releases a waiter too, so a test guarded by `withTimeout` fails instead of hanging when the
/// awaited event never comes.
public struct ParkedWaiters<Condition> {
    public init() {}

    private var nextID: UInt64 = 0
    private var parked: [UInt64: (condition: Condition, continuation: CheckedContinuation<Void, Never>)] = [:]
    private var cancelled: Set<UInt64> = []

    public mutating func makeID() -> UInt64 {
        defer { nextID += 1 }
        return nextID
    }

    /// Parks the continuation; false if its task was already cancelled (the caller resumes it).
    public mutating func park(
        _ id: UInt64, until condition: Condition, _ continuation: CheckedContinuation<Void, Never>
    ) -> Bool {
        if cancelled.remove(id) != nil { return false }
        parked[id] = (condition, continuation)
        return true
    }

    /// The waiter to resume after its task was cancelled (nil if not parked yet: `park` will refuse it).
    public mutating func cancel(_ id: UInt64) -> CheckedContinuation<Void, Never>? {
        guard let entry = parked.removeValue(forKey: id) else {
            cancelled.insert(id)
            return nil
        }
        return entry.continuation
    }

    /// Removes and returns the waiters whose condition now holds.
    public mutating func release(where holds: (Condition) -> Bool) -> [CheckedContinuation<Void, Never>] {
        let due = parked.filter { holds($0.value.condition) }
        for id in due.keys { parked.removeValue(forKey: id) }
        return due.values.map(\.continuation)
    }
}

extension Mutex {
    /// Returns once `holds` is true of the guarded value (at once if it already is). Until then
    /// the task is parked in the `ParkedWaiters` at `waiters`, which the owner releases with
    /// `release(where:)` whenever the value changes; cancellation resumes it too.
    public func wait<Condition: Sendable>(
        until condition: Condition, parkedIn waiters: WritableKeyPath<Value, ParkedWaiters<Condition>> & Sendable,
        holds: (Value) -> Bool
    ) async {
        let id = withLock { $0[keyPath: waiters].makeID() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = withLock { value in
                    holds(value) || !value[keyPath: waiters].park(id, until: condition, continuation)
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            withLock { $0[keyPath: waiters].cancel(id) }?.resume()
        }
    }
}
