import Foundation
import Logging
import SafeWalkCore
import ServiceLifecycle

/// Deletes history older than the retention period: once at start, then every `interval` of
/// the injected clock (a manual clock in tests, `ContinuousClock` in production).
public struct HistoryPruner<C: Clock>: Service where C.Duration == Duration {
    let store: TrackStore
    let retention: Double
    let interval: Duration
    let clock: C
    let now: @Sendable () -> EpochSeconds
    let logger: Logger
    let onPrune: @Sendable (Int) -> Void

    public init(
        store: TrackStore, retention: Double, interval: Duration, clock: C,
        now: @escaping @Sendable () -> EpochSeconds, logger: Logger,
        onPrune: @escaping @Sendable (Int) -> Void = { _ in }
    ) {
        self.store = store
        self.retention = retention
        self.interval = interval
        self.clock = clock
        self.now = now
        self.logger = logger
        self.onPrune = onPrune
    }

    public func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                while true {
                    await pruneOnce()
                    try await clock.sleep(for: interval)
                }
            }
        } catch is CancellationError {
            return
        }
    }

    /// Never throws: a failed prune is retried at the next interval.
    func pruneOnce() async {
        do {
            let removed = try await store.prune(olderThan: now() - retention)
            if removed > 0 { logger.info("history pruned", metadata: ["fixes": "\(removed)"]) }
            onPrune(removed)
        } catch {
            logger.error("history prune failed", metadata: ["error": "\(error)"])
        }
    }
}
