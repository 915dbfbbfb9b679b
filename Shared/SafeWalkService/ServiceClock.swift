import Foundation
import SafeWalkCore

/// A service's source of time: epoch seconds to decide with, and a way to sleep until one.
/// Production uses ``SystemServiceClock``; tests pass a manual clock they advance, so timer logic
/// is tested on virtual time, never with real sleeps.
public protocol ServiceClock: Sendable {
    func now() -> EpochSeconds
    /// Returns at or after `deadline`; throws `CancellationError` when cancelled first.
    func sleep(until deadline: EpochSeconds) async throws
}

/// Real time: a monotonic `ContinuousClock` anchored to the wall clock once at start, so a
/// wall-clock step (NTP) never makes deadlines fire early or late.
public struct SystemServiceClock: ServiceClock {
    private let epochAtStart: EpochSeconds
    private let instantAtStart: ContinuousClock.Instant

    public init() {
        epochAtStart = Date().timeIntervalSince1970
        instantAtStart = ContinuousClock.now
    }

    public func now() -> EpochSeconds {
        epochAtStart + (ContinuousClock.now - instantAtStart).seconds
    }

    public func sleep(until deadline: EpochSeconds) async throws {
        let instant = instantAtStart + .nanoseconds(Int64(((deadline - epochAtStart) * 1e9).rounded(.up)))
        try await ContinuousClock().sleep(until: instant, tolerance: .milliseconds(1))
    }
}
