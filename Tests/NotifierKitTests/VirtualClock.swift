import NotifierKit
import TestSupport

/// The shared epoch-seconds test clock, as the notifier's clock: `sleep(seconds:)` waits for the
/// test to advance it (or, in `autoAdvance` mode, moves time on and returns at once).
typealias VirtualClock = EpochClock

extension EpochClock: NotifierClock {
    /// At the fixtures' time.
    convenience init(autoAdvance: Bool = false, random: Double = 0.5) {
        self.init(now: Fixtures.now, autoAdvance: autoAdvance, random: random)
    }
}
