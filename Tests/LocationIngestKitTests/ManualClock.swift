import TestSupport

/// The shared test clock for code generic over `Clock<Duration>` (swift-clocks' `TestClock`).
typealias ManualClock = ObservedTestClock
