import SafeWalkCore
import Synchronization

/// The walkers whose positions the circle owner needs now, shared between the loop (which
/// changes it), the subscription tasks (which drop everyone else's positions undecoded) and
/// ``WatchedSubscriptions`` (which keeps the broker's subscriptions equal to it).
final class WatchedWalkers: Sendable {
    private let walkers: Mutex<Set<WalkerID>>
    /// The latest set after each change; only the newest matters to a reader that fell behind.
    let changes: AsyncStream<Set<WalkerID>>
    private let announce: AsyncStream<Set<WalkerID>>.Continuation

    init(_ walkers: Set<WalkerID>) {
        self.walkers = Mutex(walkers)
        (changes, announce) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
        announce.yield(walkers)
    }

    func contains(_ walker: WalkerID) -> Bool { walkers.withLock { $0.contains(walker) } }

    func replace(with walkers: Set<WalkerID>) {
        let changed = self.walkers.withLock { current in
            defer { current = walkers }
            return current != walkers
        }
        if changed { announce.yield(walkers) }
    }

    /// Ends ``changes``: the circle is stopping.
    func finish() { announce.finish() }
}
