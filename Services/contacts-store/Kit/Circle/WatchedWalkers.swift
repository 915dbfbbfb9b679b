import SafeWalkCore
import Synchronization

/// The walkers whose positions the circle owner needs now, shared between the loop (which
/// changes it) and the subscription tasks (which drop everyone else's positions undecoded).
final class WatchedWalkers: Sendable {
    private let walkers: Mutex<Set<WalkerID>>

    init(_ walkers: Set<WalkerID>) { self.walkers = Mutex(walkers) }

    func contains(_ walker: WalkerID) -> Bool { walkers.withLock { $0.contains(walker) } }
    func replace(with walkers: Set<WalkerID>) { self.walkers.withLock { $0 = walkers } }
}
