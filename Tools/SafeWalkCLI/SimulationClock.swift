import Foundation
import SafeWalkCore

/// The simulation's sense of time: a real clock in the CLI, a manual one in tests.
public protocol SimulationClock: Sendable {
    /// Seconds since the Unix epoch.
    func now() -> EpochSeconds
    /// Suspends for `seconds` of this clock's time; throws when the task is cancelled.
    func sleep(seconds: Double) async throws
}

/// Wall-clock time and real sleeps.
public struct SystemSimulationClock: SimulationClock {
    public init() {}
    public func now() -> EpochSeconds { Date().timeIntervalSince1970 }
    public func sleep(seconds: Double) async throws { try await Task.sleep(for: .seconds(seconds)) }
}
