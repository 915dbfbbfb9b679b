import TestSupport

/// The shared test clock for code generic over `Clock<Duration>` (`ObservedTestClock`).
typealias ManualClock = ObservedTestClock
