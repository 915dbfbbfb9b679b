import SafeWalkService

/// The watchdog's only source of time is a ``ServiceClock`` (SafeWalkService): epoch seconds to
/// decide with, and a way to sleep until one. Production uses ``SystemWatchClock``; tests pass a
/// manual clock they advance. The names stay for the watchdog's callers and tests.
public typealias WatchClock = ServiceClock

/// Real time, anchored to the wall clock once at start (``SystemServiceClock``).
public typealias SystemWatchClock = SystemServiceClock
