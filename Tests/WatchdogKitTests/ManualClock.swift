import TestSupport
import WatchdogKit

/// The shared epoch-seconds test clock, as the watchdog's clock.
typealias ManualClock = EpochClock

extension EpochClock: WatchClock {}
