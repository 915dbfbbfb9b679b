import Foundation

/// Time as the notifier sees it: wall-clock seconds for messages and receipts, and waits for
/// retries. Injected so tests run every backoff in virtual time.
public protocol NotifierClock: Sendable {
    /// Seconds since 1970.
    func now() -> Double
    /// Waits `seconds`; throws `CancellationError` when the task is cancelled.
    func sleep(seconds: Double) async throws
    /// A uniform draw in 0..<1 for retry jitter.
    func random() -> Double
    /// Waits until `now()` reaches `deadline` (the ladder's clock: a deadline, not a wait, so a
    /// time that moved on while it was being computed is never slept through twice).
    func sleep(until deadline: Double) async throws
}

extension NotifierClock {
    public func sleep(until deadline: Double) async throws { try await sleep(seconds: deadline - now()) }
}

/// The real clock: `Date()` and `Task.sleep`.
public struct SystemNotifierClock: NotifierClock {
    public init() {}
    public func now() -> Double { Date().timeIntervalSince1970 }
    public func sleep(seconds: Double) async throws {
        guard seconds > 0 else { return try Task.checkCancellation() }
        try await Task.sleep(for: .seconds(seconds))
    }
    public func random() -> Double { Double.random(in: 0..<1) }
}
