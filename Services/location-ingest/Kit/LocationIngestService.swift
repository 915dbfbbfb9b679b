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
/// 2. one writer stores everything decided since its last commit in ONE transaction, at most
///    one commit per ``commitInterval``;
/// 3. one publisher sends, after the commit, the newest retained `{p}/{w}/position` of every
///    walker that advanced, all at once (QoS 1), at most once per `positionInterval`.
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
    let positionInterval: Duration
    /// Sees every OwnTracks device and its mode; nil: no commands to OwnTracks apps (tests).
    let commander: OwnTracksCommander?

    /// - Parameter subscriptions: made beforehand with ``subscribe(bus:prefix:)`` so the service is
    ///   listening before it announces `online`; when empty, `run()` subscribes itself.
    public init(
        bus: any MessageBus, prefix: String, core: IngestCore, store: TrackStore,
        reporter: RejectionReporter, stats: IngestStats, logger: Logger,
        subscriptions: [MQTTSubscription] = [],
        positionInterval: Duration = .seconds(IngestSettings.defaultPositionInterval),
        commander: OwnTracksCommander? = nil,
        now: @escaping @Sendable () -> EpochSeconds = { Date().timeIntervalSince1970 }
    ) {
        self.subscriptions = subscriptions
        self.commander = commander
        self.positionInterval = positionInterval
        self.bus = bus
        self.prefix = prefix
        self.core = core
        self.store = store
        self.reporter = reporter
        self.stats = stats
        self.logger = logger
        self.now = now
    }

    /// The shortest time between two history commits. Positions wait for their commit, but
    /// they are paced at `positionInterval` (0.5 s) anyway; measured in the ingest benchmark,
    /// commits of ~100 fixes cost ~2 µs/fix more than commits of thousands (one track upsert
    /// per walker per commit, and each commit's own overhead).
    static let commitInterval = Duration.milliseconds(100)

    /// The shortest time between two batches decided from one subscription (measured: at
    /// ~40,000 fixes/s, batches of ~50 cost ~2 µs/fix more in task wake-ups and bookkeeping
    /// than batches of hundreds). Small beside the commit and position intervals.
    static let decideInterval = Duration.milliseconds(10)

    /// `{p}/+/fix` and `owntracks/+/+` at QoS 1 (`owntracks/+/+` does not match the apps' own
    /// `owntracks/{user}/{device}/cmd`, which location-ingest writes); as ingest K of N, only the
    /// fixes the nodes route to partition K (`{p}/+/fix/K`, `owntracks/+/+/K`).
    public static func subscribe(
        bus: any MessageBus, prefix: String, partition: WalkerPartition? = nil
    ) async throws -> [MQTTSubscription] {
        [
            try await bus.subscribe(
                TopicFilter.partitionInput(.fix, partition: partition, prefix: prefix).rawValue, qos: .atLeastOnce),
            try await bus.subscribe(
                TopicFilter.partitionInput(.owntracks, partition: partition).rawValue, qos: .atLeastOnce),
        ]
    }

    public func run() async throws {
        let subscriptions =
            self.subscriptions.isEmpty ? try await Self.subscribe(bus: bus, prefix: prefix) : self.subscriptions
        logger.info("ingesting fixes", metadata: ["filters": "\(subscriptions.map(\.filter))"])
        let writes = Mailbox<[BatchPlan]>(merge: { $0 += $1 })
        let announcements = Mailbox<Announcements>(merge: Announcements.merge)
        await withDiscardingTaskGroup { group in
            group.addTask {
                // A retained position only matters as the latest: under load each walker gets at
                // most one per interval, the newest, with any movement kept (see merge).
                await announcements.consume(pacedBy: positionInterval, on: ContinuousClock()) {
                    await publish($0)
                }
            }
            group.addTask {
                var backlog = UnsavedBacklog(limit: Self.backlogLimit)
                // Commits at most every `commitInterval`: a walker's track row is written once
                // per commit, however many of its fixes the commit holds.
                await writes.consume(pacedBy: Self.commitInterval, on: ContinuousClock()) { plans in
                    announcements.offer(await store(plans, backlog: &backlog))
                    if !backlog.isEmpty, !writes.isFinished {
                        // SQLite is failing: try again in a second with everything that piled up
                        // meanwhile (the mailbox merges it), not once per batch (retrying every
                        // batch took ingest to 78 % of a core with the disk full); the empty offer
                        // makes the retry happen even if no fix arrives.
                        try? await Task.sleep(for: .seconds(1))
                        writes.offer([])
                    }
                    await compactIfDue()
                }
                announcements.finish()
            }
            group.addTask {
                await withDiscardingTaskGroup { consumers in
                    for subscription in subscriptions {
                        consumers.addTask {
                            await subscription.forEachBatchUntilShutdown { batch in
                                let next = ContinuousClock.now + Self.decideInterval
                                writes.offer([await decide(batch)])
                                // What arrives meanwhile waits in the subscription's buffer and
                                // comes as one bigger batch: each batch has a fixed cost.
                                try? await Task.sleep(until: next)
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
        await publish(await store([await decide(batch)], backlog: &backlog))
    }

    /// location-ingest's part of an account deletion: the walker's history and track leave SQLite,
    /// its track leaves memory, and the retained `{p}/{w}/position` is cleared (an empty retained
    /// message). Either failing is `storeError`, and `web` asks again; asking again is harmless.
    ///
    /// Not reached: fixes decided but not yet committed (at most one commit interval's worth),
    /// positions waiting for the publisher, and the writer's ``UnsavedBacklog`` while SQLite
    /// refuses writes are all local to `run()`'s tasks, so a fix of the walker decided before this
    /// erasure can still be stored, or its position retained, after it. `web` disables the
    /// walker's logins first, so no new fix arrives, and a failing SQLite fails this erasure too.
    public func erase(_ walker: WalkerID) async -> EraseReport.Failure? {
        do {
            try await store.erase(walker)
        } catch {
            logger.error("history not erased", metadata: ["walker": "\(walker)", "error": "\(error)"])
            return .storeError
        }
        core.forget(walker)
        commander?.forget(walker)
        do {
            try await bus.publish(
                Topic.position(walker).name(prefix: prefix), payload: Data(), qos: .atLeastOnce, retain: true)
        } catch {
            logger.warning("retained position not cleared", metadata: ["walker": "\(walker)", "error": "\(error)"])
            return .storeError
        }
        return nil
    }

    /// Stage 3: positions and presence, each walker's presence as ``IngestCore`` knows it now (a
    /// walker erased meanwhile has none, and gets none).
    private func publish(_ announcements: Announcements) async {
        let publisher = PositionPublisher(bus: bus, prefix: prefix, stats: stats, logger: logger)
        await publisher.publish(announcements.positions)
        for (walker, will) in core.wills(of: announcements.presence) {
            guard let will else { continue }
            let presence: Presence = will.offline ? .offline : .online
            do {
                // Retained, as a device's own presence is: the watchdog reads it after a restart.
                try await bus.publish(
                    Topic.presence(walker).name(prefix: prefix), payload: presence.payload, qos: .atLeastOnce,
                    retain: true)
                stats.recordPresence()
                logger.info(
                    "OwnTracks device presence", metadata: ["walker": "\(walker)", "presence": "\(presence)"])
            } catch {
                logger.warning(
                    "OwnTracks device presence not published",
                    metadata: ["walker": "\(walker)", "presence": "\(presence)", "error": "\(error)"])
            }
        }
    }

    /// Stage 1: decode, validate, decide; report rejections.
    private func decide(_ batch: [MQTTMessage]) async -> BatchPlan {
        let at = now()
        let plan = await core.planConcurrently(batch, now: at)
        await commander?.observe(batch)
        stats.record(plan, received: batch.count)
        for (reason, kind, walker) in plan.rejections {
            await reporter.reject(reason: reason, topicKind: kind, walker: walker, now: at)
        }
        for (walker, type) in plan.ignored {
            logger.debug(
                "non-location OwnTracks message ignored", metadata: ["walker": "\(walker)", "type": "\(type)"])
        }
        return plan
    }

    /// Between commits, after the positions went to the publisher: under load that never lets
    /// ``HistoryCompactor`` find a quiet moment, moves the appended history into its
    /// walker-clustered table once the log is full (see ``TrackStore``).
    private func compactIfDue() async {
        guard store.logIsFull else { return }
        do {
            let moved = try await store.compact()
            logger.debug("history compacted", metadata: ["fixes": "\(moved)"])
        } catch {
            // The fixes stay in the log, readable and retried at the next commit.
            logger.error("history compaction failed", metadata: ["error": "\(error)"])
        }
    }

    /// Stage 2: one transaction for all `plans` and whatever an earlier failed commit left in
    /// `backlog`; returns the positions to publish.
    private func store(_ plans: [BatchPlan], backlog: inout UnsavedBacklog) async -> Announcements {
        var history: [HistoryRow] = []
        var tracks: [WalkerID: WalkerTrack] = [:]
        var wills: Set<WalkerID> = []
        var announcements = Announcements()
        for plan in plans {
            history += plan.history
            // Two subscriptions may offer plans out of decision order: the newest track wins.
            tracks.merge(plan.tracks) { $0.last.tst >= $1.last.tst ? $0 : $1 }
            wills.formUnion(plan.willsChanged)
            Announcements.merge(
                &announcements, Announcements(positions: plan.positions, presence: plan.presenceChanged))
        }
        let all = backlog.including(history, tracks, wills: wills)
        do {
            try await store.save(
                history: all.history, tracks: all.tracks, wills: core.wills(of: all.wills).compactMapValues { $0 })
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
            let dropped = backlog.keep(all.history, all.tracks, wills: all.wills)
            logger.critical(
                "history not stored; kept in memory and retried",
                metadata: [
                    "fixes": "\(history.count)", "backlog": "\(backlog.history.count)", "error": "\(error)",
                ])
            if dropped > 0 {
                logger.critical(
                    "history backlog full; oldest fixes dropped",
                    metadata: [
                        "dropped": "\(dropped)", "droppedTotal": "\(backlog.dropped)",
                    ])
            }
        }
        return announcements
    }
}
