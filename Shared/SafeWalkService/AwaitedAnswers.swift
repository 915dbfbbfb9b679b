import Synchronization

/// Requests sent over the broker that wait for an answer carrying their key (web's account
/// commands and erase requests, broker-admin's plugin batches), resumed by whoever reads the
/// answer topic.
///
/// The key is registered before the request is sent, so an answer that arrives before the
/// sender starts waiting is kept for it. A waiter that is cancelled (its HTTP request's deadline
/// passed) is removed and resumed with `CancellationError`, so a later answer is dropped rather
/// than leaked; an answer for a key nobody waits for (a late one, a repeat at QoS 1) is ignored.
public final class AwaitedAnswers<Key: Hashable & Sendable, Answer: Sendable>: Sendable {
    private enum Slot {
        case expected(CheckedContinuation<Answer, any Error>?)
        case answered(Answer)
    }

    private let slots = Mutex<[Key: Slot]>([:])

    public init() {}

    /// Registers `key`, runs `send`, and waits for ``deliver(_:for:)``.
    public func wait(for key: Key, afterSending send: @Sendable () async throws -> Void) async throws -> Answer {
        let fresh = slots.withLock { slots -> Bool in
            guard slots[key] == nil else { return false }
            slots[key] = .expected(nil)
            return true
        }
        guard fresh else { throw DuplicateKey() }
        do {
            try await send()
        } catch {
            _ = slots.withLock { $0.removeValue(forKey: key) }
            throw error
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let answer = slots.withLock { slots -> Result<Answer, any Error>? in
                    switch slots[key] {
                    case .answered(let answer):
                        slots[key] = nil
                        return .success(answer)
                    case .expected:
                        slots[key] = .expected(continuation)
                        return nil
                    case nil:
                        return .failure(CancellationError())  // cancelled before we got here
                    }
                }
                if let answer { continuation.resume(with: answer) }
            }
        } onCancel: {
            if case .expected(let continuation?) = slots.withLock({ $0.removeValue(forKey: key) }) {
                continuation.resume(throwing: CancellationError())
            }
        }
    }

    /// Hands `answer` to the waiter for `key`. Returns false when nobody waits for it.
    @discardableResult
    public func deliver(_ answer: Answer, for key: Key) -> Bool {
        let waiter = slots.withLock { slots -> (found: Bool, CheckedContinuation<Answer, any Error>?) in
            guard case .expected(let continuation) = slots[key] else { return (false, nil) }
            if let continuation {
                slots[key] = nil
                return (true, continuation)
            }
            slots[key] = .answered(answer)
            return (true, nil)
        }
        waiter.1?.resume(returning: answer)
        return waiter.found
    }

    /// Fails every waiter (the answer subscription ended).
    public func failAll(_ error: any Error) {
        let waiters = slots.withLock { slots in
            defer { slots.removeAll() }
            return slots.values.compactMap { slot -> CheckedContinuation<Answer, any Error>? in
                if case .expected(let continuation) = slot { continuation } else { nil }
            }
        }
        for continuation in waiters { continuation.resume(throwing: error) }
    }

    /// Requests still waiting.
    public var count: Int { slots.withLock { $0.count } }

    /// Two requests with one key: a caller's bug (keys are fresh UUIDs).
    public struct DuplicateKey: Error {}
}
