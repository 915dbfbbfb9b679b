import Foundation
import Logging
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import ServiceLifecycle

/// Subscribes to `{p}/+/fix` and `owntracks/+/+` and runs a three-stage pipeline, so that no
/// stage waits for another's IO:
/// 1. per subscription, each batch the broker hands over is decoded and decided
///    (``IngestCore``) and its rejections reported;
/// 2. one writer stores everything decided since its last commit in ONE transaction;
/// 3. one publisher sends, after the commit, the newest retained `{p}/{w}/position` of every
///    walker that advanced, all at once (QoS 1).
/// Under load stages 2 and 3 merge what piled up, so bursts become bigger batches, not a
/// growing delay per message.
public struct LocationIngestService: Service {
    let bus: any MessageBus
    let prefix: String
    let core: IngestCore
    let store: TrackStore
    let reporter: RejectionReporter
    let stats: IngestStats
    let logger: Logger
    let now: @Sendable () -> EpochSeconds
    let subscriptions: [MQTTSubscription]

    /// - Parameter subscriptions: made beforehand with ``subscribe(bus:prefix:)`` so the service is
    ///   listening before it announces `online`; when empty, `run()` subscribes itself.
    public init(bus: any MessageBus, prefix: String, core: IngestCore, store: TrackStore,
                reporter: RejectionReporter, stats: IngestStats, logger: Logger,
                subscriptions: [MQTTSubscription] = [],
                now: @escaping @Sendable () -> EpochSeconds = { Date().timeIntervalSince1970 }) {
        self.subscriptions = subscriptions
        self.bus = bus
        self.prefix = prefix
        self.core = core
        self.store = store
        self.reporter = reporter
        self.stats = stats
        self.logger = logger
        self.now = now
    }

    /// `{p}/+/fix` and `owntracks/+/+` at QoS 1.
    public static func subscribe(bus: any MessageBus, prefix: String) async throws -> [MQTTSubscription] {
        [try await bus.subscribe(TopicFilter.everyWalker(.fix, prefix: prefix).rawValue, qos: .atLeastOnce),
         try await bus.subscribe(TopicFilter.owntracks.rawValue, qos: .atLeastOnce)]
    }

    public func run() async throws {
        let subscriptions = self.subscriptions.isEmpty ? try await Self.subscribe(bus: bus, prefix: prefix) : self.subscriptions
        logger.info("ingesting fixes", metadata: ["filters": "\(subscriptions.map(\.filter))"])
        let writes = Mailbox<[BatchPlan]>(merge: { $0 += $1 })
        let positions = Mailbox<[WalkerID: PositionUpdate]>(merge: PositionPublisher.merge)
        await withDiscardingTaskGroup { group in
            group.addTask {
                while let latest = await positions.take() { await publisher.publish(latest) }
            }
            group.addTask {
                var backlog = UnsavedBacklog(limit: Self.backlogLimit)
                while let plans = await writes.take() {
                    positions.offer(await store(plans, backlog: &backlog))
                    if !backlog.isEmpty, !writes.isFinished {
                        // SQLite is failing: try again in a second with everything that piled up
                        // meanwhile (the mailbox merges it), not once per batch (retrying every
                        // batch took ingest to 78 % of a core with the disk full); the empty offer
                        // makes the retry happen even if no fix arrives.
                        try? await Task.sleep(for: .seconds(1))
                        writes.offer([])
                    }
                }
                positions.finish()
            }
            group.addTask {
                await withDiscardingTaskGroup { consumers in
                    for subscription in subscriptions {
                        consumers.addTask {
                            for await batch in subscription.batches.cancelOnGracefulShutdown() {
                                writes.offer([await decide(batch)])
                            }
                        }
                    }
                }
                writes.finish()  // the writer and then the publisher drain and stop
            }
        }
    }

    /// Fixes kept in memory while SQLite refuses writes (~100 bytes each), at most.
    public static let backlogLimit = 500_000

    /// One batch end to end (decide, store, publish), awaiting each stage: for tests.
    public func handle(_ batch: [MQTTMessage]) async {
        var backlog = UnsavedBacklog(limit: Self.backlogLimit)
        await publisher.publish(await store([await decide(batch)], backlog: &backlog))
    }

    private var publisher: PositionPublisher { PositionPublisher(bus: bus, prefix: prefix, stats: stats, logger: logger) }

    /// Stage 1: decode, validate, decide; report rejections.
    private func decide(_ batch: [MQTTMessage]) async -> BatchPlan {
        let at = now()
        let plan = await core.planConcurrently(batch, now: at)
        stats.record(plan, received: batch.count)
        for (reason, kind, walker) in plan.rejections {
            await reporter.reject(reason: reason, topicKind: kind, walker: walker, now: at)
        }
        for (walker, type) in plan.ignored {
            logger.debug("non-location OwnTracks message ignored", metadata: ["walker": "\(walker)", "type": "\(type)"])
        }
        return plan
    }

    /// Stage 2: one transaction for all `plans` and whatever an earlier failed commit left in
    /// `backlog`; returns the positions to publish.
    private func store(_ plans: [BatchPlan], backlog: inout UnsavedBacklog) async -> [WalkerID: PositionUpdate] {
        var history: [HistoryRow] = []
        var tracks: [WalkerID: WalkerTrack] = [:]
        var positions: [WalkerID: PositionUpdate] = [:]
        for plan in plans {
            history += plan.history
            // Two subscriptions may offer plans out of decision order: the newest track wins.
            tracks.merge(plan.tracks) { $0.last.tst >= $1.last.tst ? $0 : $1 }
            PositionPublisher.merge(&positions, plan.positions)
        }
        let all = backlog.including(history, tracks)
        do {
            try await store.save(history: all.history, tracks: all.tracks)
            stats.recordStored(all.history.count)
            if !backlog.isEmpty {
                logger.notice("history stored again; backlog written", metadata: ["fixes": "\(backlog.history.count)"])
            }
            backlog.clear()
        } catch {
            // Positions still go out: the watchdog needs them more than history does. The rows
            // stay in memory and go with the next commit (a full disk must not lose fixes the
            // broker acknowledged).
            stats.recordStoreFailure()
            let dropped = backlog.keep(all.history, all.tracks)
            logger.critical("history not stored; kept in memory and retried", metadata: [
                "fixes": "\(history.count)", "backlog": "\(backlog.history.count)", "error": "\(error)"])
            if dropped > 0 {
                logger.critical("history backlog full; oldest fixes dropped", metadata: [
                    "dropped": "\(dropped)", "droppedTotal": "\(backlog.dropped)"])
            }
        }
        return positions
    }
}
