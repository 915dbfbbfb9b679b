import Metrics
import Synchronization

/// Running totals, for operators (swift-metrics counters) and for benchmarks and tests.
public final class IngestStats: Sendable {
    public struct Snapshot: Hashable, Sendable {
        public var received = 0
        /// Fixes that became the walker's position.
        public var accepted = 0
        /// Fixes written to history in committed transactions (accepted and out-of-order).
        public var stored = 0
        public var outOfOrder = 0
        public var duplicates = 0
        public var ignored = 0
        public var rejected = 0
        public var positionsPublished = 0
        /// `online` / `offline` said on `{w}/presence` for OwnTracks apps.
        public var presencePublished = 0
        public var storeFailures = 0
        public var batches = 0
    }

    private let state = Mutex(Snapshot())
    private let acceptedCounter = Counter(label: "safewalk_ingest_fixes_accepted_total")
    private let storedCounter = Counter(label: "safewalk_ingest_fixes_stored_total")
    private let batchSize = Recorder(label: "safewalk_ingest_batch_size")

    public init() {}

    public var snapshot: Snapshot { state.withLock { $0 } }

    func record(_ plan: BatchPlan, received: Int) {
        state.withLock {
            $0.received += received
            $0.accepted += plan.accepted
            $0.outOfOrder += plan.outOfOrder
            $0.duplicates += plan.duplicates
            $0.ignored += plan.ignored.count + plan.cleared
            $0.rejected += plan.rejections.count
            $0.batches += 1
        }
        acceptedCounter.increment(by: plan.accepted)
        batchSize.record(received)
    }

    func recordStored(_ count: Int) {
        state.withLock { $0.stored += count }
        storedCounter.increment(by: count)
    }

    func recordStoreFailure() { state.withLock { $0.storeFailures += 1 } }
    func recordPublished(_ count: Int) { state.withLock { $0.positionsPublished += count } }
    func recordPresence() { state.withLock { $0.presencePublished += 1 } }
}
