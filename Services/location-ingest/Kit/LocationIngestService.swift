import Foundation
import Logging
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import ServiceLifecycle

/// Subscribes to `{p}/+/fix` and `owntracks/+/+`, and for every batch the broker hands over:
/// decides (``IngestCore``), stores history in one transaction (``TrackStore``), publishes the
/// retained `{p}/{w}/position` of each walker that advanced, and reports rejections.
public struct LocationIngestService: Service {
    let bus: any MessageBus
    let prefix: String
    let core: IngestCore
    let store: TrackStore
    let reporter: RejectionReporter
    let stats: IngestStats
    let logger: Logger
    let now: @Sendable () -> EpochSeconds

    public init(bus: any MessageBus, prefix: String, core: IngestCore, store: TrackStore,
                reporter: RejectionReporter, stats: IngestStats, logger: Logger,
                now: @escaping @Sendable () -> EpochSeconds = { Date().timeIntervalSince1970 }) {
        self.bus = bus
        self.prefix = prefix
        self.core = core
        self.store = store
        self.reporter = reporter
        self.stats = stats
        self.logger = logger
        self.now = now
    }

    public func run() async throws {
        let fixes = try await bus.subscribe(TopicFilter.everyWalker(.fix, prefix: prefix).rawValue, qos: .atLeastOnce)
        let owntracks = try await bus.subscribe(TopicFilter.owntracks.rawValue, qos: .atLeastOnce)
        logger.info("ingesting fixes", metadata: ["filters": "\(fixes.filter), \(owntracks.filter)"])
        await withDiscardingTaskGroup { group in
            for subscription in [fixes, owntracks] {
                group.addTask {
                    for await batch in subscription.batches.cancelOnGracefulShutdown() {
                        await handle(batch)
                    }
                }
            }
        }
    }

    /// Handles one batch end to end. Public so benchmarks and tests can drive it directly.
    public func handle(_ batch: [MQTTMessage]) async {
        let at = now()
        let plan = core.plan(batch, now: at)
        stats.record(plan, received: batch.count)
        do {
            try await store.save(history: plan.history, tracks: plan.tracks)
            stats.recordStored(plan.history.count)
        } catch {
            // Positions still go out: the watchdog needs them more than history does.
            stats.recordStoreFailure()
            logger.error("history not stored", metadata: ["fixes": "\(plan.history.count)", "error": "\(error)"])
        }
        for (reason, kind, walker) in plan.rejections {
            await reporter.reject(reason: reason, topicKind: kind, walker: walker, now: at)
        }
        for (walker, type) in plan.ignored {
            logger.debug("non-location OwnTracks message ignored", metadata: ["walker": "\(walker)", "type": "\(type)"])
        }
        await publish(plan.positions)
    }

    /// Publishes every position at QoS 1 concurrently: awaiting each PUBACK in turn would cap
    /// ingest at one round trip per walker.
    private func publish(_ positions: [WalkerID: PositionUpdate]) async {
        guard !positions.isEmpty else { return }
        let encoder = SafeWalkJSON.encoder()
        let published = await withTaskGroup(of: Bool.self) { group in
            for (walker, update) in positions {
                guard let payload = try? encoder.encode(update) else { continue }
                let topic = Topic.position(walker).name(prefix: prefix)
                group.addTask {
                    do {
                        try await bus.publish(MQTTMessage(topic: topic, payload: payload, qos: .atLeastOnce, retain: true))
                        return true
                    } catch {
                        logger.warning("position not published", metadata: ["walker": "\(walker)", "error": "\(error)"])
                        return false
                    }
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        stats.recordPublished(published)
    }
}
