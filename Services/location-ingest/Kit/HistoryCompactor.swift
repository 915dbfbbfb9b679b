import Logging
import ServiceLifecycle

/// Moves appended history into its walker-clustered table (see ``TrackStore``) when ingest is
/// quiet: at each `interval` of the injected clock, if nothing was appended since the previous
/// look and something is pending. A burst so pays only the append while it lasts; under load
/// that never pauses, the writer compacts when the log reaches ``TrackStore/logLimit``.
public struct HistoryCompactor<C: Clock>: Service where C.Duration == Duration {
    let store: TrackStore
    let interval: Duration
    let clock: C
    let logger: Logger
    let onCompaction: @Sendable (Int) -> Void

    public init(
        store: TrackStore, interval: Duration, clock: C, logger: Logger,
        onCompaction: @escaping @Sendable (Int) -> Void = { _ in }
    ) {
        self.store = store
        self.interval = interval
        self.clock = clock
        self.logger = logger
        self.onCompaction = onCompaction
    }

    public func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                var previous = store.pendingLogRows
                while true {
                    try await clock.sleep(for: interval)
                    let pending = store.pendingLogRows
                    if pending > 0, pending == previous { await compactOnce() }
                    previous = store.pendingLogRows
                }
            }
        } catch is CancellationError {
            return
        }
    }

    /// Never throws: the rows stay in the log, readable, and are tried again when next quiet.
    func compactOnce() async {
        do {
            let moved = try await store.compact()
            logger.debug("history compacted", metadata: ["fixes": "\(moved)"])
            onCompaction(moved)
        } catch {
            logger.error("history compaction failed", metadata: ["error": "\(error)"])
        }
    }
}
