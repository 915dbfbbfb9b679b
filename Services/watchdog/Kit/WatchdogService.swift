import Foundation
import Logging
import Metrics
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import ServiceLifecycle
import Synchronization

/// The watchdog: one event loop owns every walker's watch and the deadline scheduler.
///
/// Per wake-up it takes every message that arrived (and every deadline that came due), steps
/// the pure machine for each, writes all changed watches and new outbox rows in ONE SQLite
/// transaction, and only then hands the rows to the ``OutboxPublisher``. Each walker's events
/// are applied in arrival order; a slow broker never blocks the loop (publishing is separate).
public final class WatchdogService: Service, Sendable {
    public struct Options: Sendable {
        public var prefix: String
        public var thresholds: SafetyThresholds
        public var maxPayloadBytes: Int
        public var pinHasher: PINHasher
        /// `SAFEWALK_WALK_STALL_AFTER`: see ``WatchMachine/walkStallAfter``.
        public var walkStallAfter: Double
        /// `SAFEWALK_POSITION_WRITE_DELAY`: see ``PositionWrites``. 0 (the default here, for
        /// tests that read SQLite after each message) writes every change at once.
        public var positionWriteDelay: Double
        /// `SAFEWALK_OUTBOX_MARK_DELAY`: see ``SentMarks``. 0 (the default here, for tests that
        /// read the outbox after each PUBACK) marks each batch of PUBACKs at once.
        public var sentMarkDelay: Double
        /// `SAFEWALK_ESCALATION_RECEIPT_WAIT`: an escalation the notifier has not receipted this
        /// long after its PUBACK is published again (``EscalationReceipts``). nil (the default
        /// here, for tests and benchmarks without a notifier) waits for no receipt.
        public var receiptWait: Double?
        /// `SAFEWALK_BROKER_CUT_AFTER`: the safety clocks stop while the broker is silent
        /// (``BrokerLink``). nil (the default here, for tests that move a manual clock with no
        /// broker to hear from) lets them run whatever the link does.
        public var brokerLink: BrokerLink.Settings?
        /// `SAFEWALK_PARTITION(S)`: this instance's share of the walkers on a cluster with
        /// several watchdogs; nil reads every walker's inputs.
        public var partition: WalkerPartition?

        public init(
            prefix: String, thresholds: SafetyThresholds, maxPayloadBytes: Int = 16 * 1024,
            pinHasher: PINHasher = PINHasher(), walkStallAfter: Double = WatchMachine.defaultWalkStallAfter,
            positionWriteDelay: Double = 0, sentMarkDelay: Double = 0, receiptWait: Double? = nil,
            brokerLink: BrokerLink.Settings? = nil, partition: WalkerPartition? = nil
        ) {
            self.prefix = prefix
            self.thresholds = thresholds
            self.maxPayloadBytes = maxPayloadBytes
            self.pinHasher = pinHasher
            self.walkStallAfter = walkStallAfter
            self.positionWriteDelay = positionWriteDelay
            self.sentMarkDelay = sentMarkDelay
            self.receiptWait = receiptWait
            self.brokerLink = brokerLink
            self.partition = partition
        }
    }

    let bus: any MessageBus
    private let store: WatchStore
    let clock: any WatchClock
    let options: Options
    private let reporter: RejectionReporter
    let logger: Logger
    public let publisher: OutboxPublisher
    private let receipts: ReceiptWatcher?
    let inbox = WorkQueue<WatchInput>()
    private let ready = WorkQueue<Bool>()
    private let subscriptions = Mutex<[MQTTSubscription]?>(nil)
    /// When the broker acknowledged the heartbeat (``beat(_:)``) since the loop last read them,
    /// in order, for its ``BrokerLink``.
    let heartbeatAcknowledgements = Mutex<[EpochSeconds]>([])

    public init(
        bus: any MessageBus, store: WatchStore, clock: any WatchClock, options: Options,
        reporter: RejectionReporter, logger: Logger, observer: OutboxPublisher.Observer? = nil
    ) {
        self.bus = bus
        self.store = store
        self.clock = clock
        self.options = options
        self.reporter = reporter
        self.logger = logger
        let receipts = options.receiptWait.map {
            ReceiptWatcher(
                bus: bus, store: store, clock: clock, prefix: options.prefix, partition: options.partition,
                firstWait: $0, reporter: reporter, logger: logger)
        }
        self.receipts = receipts
        // The publisher's one PUBACK observer: the caller's (benchmarks), and the start of each
        // escalation's wait for its receipt.
        var acknowledged = observer
        if let receipts {
            acknowledged = { row, at in
                observer?(row, at)
                receipts.published(row, at: at)
            }
        }
        publisher = OutboxPublisher(
            bus: bus, store: store, clock: clock, logger: logger, sentMarkDelay: options.sentMarkDelay,
            observer: acknowledged)
    }

    /// The input topics: every walker's position, reply, action and presence (only the walkers
    /// routed to `partition`, when there is one), and the monitoring desk's close (`_desk/close`,
    /// from `web` only, which every instance reads: ``answers(for:)``).
    public static func filters(prefix: String, partition: WalkerPartition? = nil) -> [String] {
        [Topic.Kind.position, .reply, .action, .presence].map {
            TopicFilter.partitionInput($0, partition: partition, prefix: prefix).rawValue
        } + [Topic.deskClose.name(prefix: prefix)]
    }

    /// Whether this instance answers a request about `walker` that every instance reads (the
    /// desk's close): ``WalkerPartition/answers(_:for:)``.
    public func answers(for walker: WalkerID?) -> Bool { WalkerPartition.answers(options.partition, for: walker) }

    /// Erases what the watchdog keeps about `walker` (docs/CONTRACT.md, "Accounts"): refused
    /// with `openIncident` while ``WatchErasure`` says so, else the watch, its deadline and its
    /// outbox rows go and the retained `{w}/status` and `_incidents/{w}` are cleared. Queued on the event loop's inbox
    /// behind every message already received, so it never interleaves with one. Idempotent: a
    /// walker with no watch is reported erased.
    public func erase(_ walker: WalkerID) async -> EraseReport.Failure? {
        await withCheckedContinuation { reply in
            // The loop has ended (shutting down): nothing erased; web asks again.
            if !inbox.append(contentsOf: [.erase(walker, reply)]) { reply.resume(returning: .storeError) }
        }
    }

    /// Suspends until the watches are restored and the inputs subscribed (for tests and benchmarks).
    public func waitUntilReady() async { _ = await ready.next() }

    /// Subscribes to the inputs. Called by the builder before the service announces `online`,
    /// so nothing published after `online` can be missed; `run()` calls it if nobody did.
    /// Messages wait in the subscriptions' buffers until the watches are restored.
    public func subscribeInputs() async throws {
        guard subscriptions.withLock({ $0 == nil }) else { return }
        var made: [MQTTSubscription] = []
        for filter in Self.filters(prefix: options.prefix, partition: options.partition) {
            made.append(try await bus.subscribe(filter, qos: .atLeastOnce))
        }
        try await receipts?.subscribe()
        subscriptions.withLock { $0 = made }
    }

    public func run() async throws {
        let started = ContinuousClock.now
        let restored = try await store.restore(
            into: WatchEngine(
                machine: WatchMachine(thresholds: options.thresholds, walkStallAfter: options.walkStallAfter)))
        var engine = restored.engine
        let unsent = restored.unsent
        publisher.enqueue(unsent)
        logger.info(
            "watches restored",
            metadata: [
                "watches": "\(engine.count)", "unsentOutbox": "\(unsent.count)",
                "took": "\(ContinuousClock.now - started)",
            ])

        try await subscribeInputs()
        let subscriptions = self.subscriptions.withLock { $0 ?? [] }
        let checkpointer = try await Checkpointer(store: store)
        try await withGracefulShutdownHandler {
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { await self.publisher.run() }
                if let receipts { group.addTask { try await receipts.run(republishingThrough: self.publisher) } }
                let checkpoints = Task { [clock, logger] in await checkpointer.run(clock: clock, logger: logger) }
                defer { checkpoints.cancel() }
                let heartbeat = options.brokerLink.map { settings in Task { await self.beat(settings) } }
                defer { heartbeat?.cancel() }
                for subscription in subscriptions {
                    group.addTask {
                        for await batch in subscription.batches {
                            self.inbox.append(contentsOf: batch.map(WatchInput.message))
                        }
                    }
                }
                ready.append(contentsOf: [true])
                try await loop(&engine)
                publisher.finish()
                receipts?.stop()
                subscriptions.forEach { $0.cancel() }
            }
        } onGracefulShutdown: {
            self.inbox.finish()
        }
    }

    private func loop(_ engine: inout WatchEngine) async throws {
        let alarm = DeadlineAlarm(clock: clock) { [inbox] in inbox.poke() }
        defer { alarm.cancel() }
        let decoder = InputDecoder(prefix: options.prefix, maxBytes: options.maxPayloadBytes)
        let deskTopic = Topic.deskClose.name(prefix: options.prefix)
        let composer = OutboxComposer(prefix: options.prefix)
        var misrouted = MisroutedInputs()
        let pinChecker = PINChecker(hasher: options.pinHasher)
        let batchTimer = Metrics.Timer(label: "safewalk_watchdog_batch_seconds")
        var link = options.brokerLink.map { BrokerLink(settings: $0, heardAt: clock.now()) }
        let brokerSilences = Counter(label: "safewalk_watchdog_broker_silences_credited_total")
        var holding = false
        // Deadlines that passed while the watchdog was down are due now: the first pass fires them.
        inbox.poke()
        // Watches a failed commit could not write (disk full): written with the next commit.
        var unsaved: [WalkerID: Watch] = [:]
        var unsavedAnswers: [OutboxItem] = []
        var positions = PositionWrites(
            delay: PositionWrites.effectiveDelay(
                options.positionWriteDelay, noMovementAfter: options.thresholds.noMovementAfter))
        while let inputs = await inbox.next() {
            for segment in WatchInput.segments(inputs) {
                if case .erase(let walker, let reply) = segment {
                    let failure = await erase(walker, from: &engine)
                    if failure == nil {
                        positions.written(walker)
                        unsaved[walker] = nil
                        unsavedAnswers.removeAll { $0.walker == walker }
                    }
                    reply.resume(returning: failure)
                    continue
                }
                guard case .messages(let messages) = segment else { continue }
                let started = ContinuousClock.now
                let now = clock.now()
                var changed: [WalkerID: Watch] = [:]
                var outbox: [OutboxItem] = []
                var rejections: [InputRejection] = []
                if var known = link {
                    let acknowledged = heartbeatAcknowledgements.withLock { acks in
                        defer { acks.removeAll(keepingCapacity: true) }
                        return acks
                    }
                    for silence in known.heard(inOrder: acknowledged + (messages.isEmpty ? [] : [now])) {
                        let moved = engine.credit(silence)
                        for watch in moved { changed[watch.walker] = watch }
                        logger.warning(
                            "the broker was silent: every safety clock moved on by the silence",
                            metadata: ["silence": "\(silence)", "watches": "\(moved.count)"])
                        brokerSilences.increment()
                    }
                    link = known
                }
                func record(_ walker: WalkerID, _ step: WatchStep) {
                    if step.canWait {
                        positions.wait(walker, now: now)
                    } else if step.changed {
                        changed[walker] = step.watch
                        positions.written(walker)
                    }
                    guard !step.actions.isEmpty else { return }
                    do {
                        outbox += try composer.items(for: walker, step.actions, now: now)
                    } catch {
                        logger.critical(
                            "could not encode an outbox item", metadata: ["walker": "\(walker)", "error": "\(error)"])
                    }
                    logDecisions(walker, step.actions)
                }
                for message in messages {
                    if message.topic == deskTopic {
                        // The walker is the payload's; a refusal is answered after the commit.
                        // Every instance reads the desk's close; one answers it.
                        switch DeskCloseIntake.read(message.payload) {
                        case .success(let close) where answers(for: close.walker):
                            record(close.walker, engine.closeForDesk(close, now: now))
                        case .success: break
                        case .failure(let rejection) where answers(for: nil): rejections.append(rejection)
                        case .failure: break
                        }
                        continue
                    }
                    do {
                        guard case .event(let walker, var event) = try decoder.decode(message, now: now) else {
                            continue
                        }
                        if !answers(for: walker) {
                            misrouted.note(walker, partition: options.partition, logger: logger)
                        }
                        if case .action(let action, var check) = event, PINChecker.applies(to: action) {
                            // PINs are checked here, against the hashes as they stand after every
                            // earlier message of this batch, and never reach the machine in clear.
                            check = pinChecker.check(action, check, pins: engine.watch(for: walker)?.pins)
                            event = .action(action, check)
                        }
                        record(walker, engine.handle(event, for: walker, now: now))
                    } catch {
                        rejections.append(error)
                    }
                }
                for step in engine.fireDue(now: now, upTo: link?.firesUpTo(now)) { record(step.watch.walker, step) }
                for walker in positions.takeDue(now: now) where changed[walker] == nil {
                    changed[walker] = engine.watch(for: walker)
                }
                let toWrite = unsaved.merging(changed) { _, newer in newer }
                if await persistAndPublish(Array(toWrite.values), outbox, answers: &unsavedAnswers) {
                    if !unsaved.isEmpty {
                        logger.notice(
                            "watches persisted again after a failed commit", metadata: ["watches": "\(unsaved.count)"])
                    }
                    unsaved = [:]
                } else {
                    unsaved = toWrite
                }
                for rejection in rejections {
                    await reporter.reject(
                        reason: rejection.code, topicKind: rejection.topicKind, walker: rejection.walker,
                        id: rejection.id, now: now)
                    if rejection.topicKind == .deskClose, let id = rejection.id { await refuseDesk(id) }
                }
                let took = (ContinuousClock.now - started).components
                batchTimer.recordNanoseconds(took.seconds * 1_000_000_000 + took.attoseconds / 1_000_000_000)
            }
            let now = clock.now()
            var next = engine.nextDeadline()
            // A deadline due while the broker has not been heard from since waits until it is:
            // the heartbeat's acknowledgement pokes the loop, and the alarm looks again in a second.
            let held = next.map { $0 <= now && $0 > (link?.firesUpTo(now) ?? now) } ?? false
            if held {
                next = now + 1
                if !holding {
                    logger.warning(
                        "the broker is silent: deadlines held until it is heard from again",
                        metadata: ["since": "\(link?.heardAt ?? now)"])
                }
            }
            holding = held
            // A failed commit is retried within a second even if nothing else happens.
            if !unsaved.isEmpty || !unsavedAnswers.isEmpty { next = min(next ?? .infinity, now + 1) }
            if let due = positions.dueAt() { next = min(next ?? .infinity, due) }
            if let next, next <= now { inbox.poke() } else { alarm.arm(next) }
        }
        await writeWaitingPositions(&positions, engine: engine, unsaved: unsaved)
    }

    /// At a graceful stop every position still waiting is written, with any watch a failed
    /// commit left: a restart then starts from exactly where this run stopped.
    private func writeWaitingPositions(
        _ positions: inout PositionWrites, engine: WatchEngine, unsaved: [WalkerID: Watch]
    ) async {
        var watches = unsaved
        for walker in positions.takeDue(now: .infinity, all: true) where watches[walker] == nil {
            watches[walker] = engine.watch(for: walker)
        }
        guard !watches.isEmpty else { return }
        do {
            _ = try await store.commit(watches: Array(watches.values), outbox: [])
            logger.info("watches written at shutdown", metadata: ["watches": "\(watches.count)"])
        } catch {
            logger.error(
                "could not write the watches at shutdown; positions come back from the retained fixes",
                metadata: ["watches": "\(watches.count)", "error": "\(error)"])
        }
    }

    /// One erasure, between two passes of the loop: everything received before it is committed.
    /// Memory changes only once SQLite has; a failed write changes nothing and is reported.
    private func erase(_ walker: WalkerID, from engine: inout WatchEngine) async -> EraseReport.Failure? {
        let watch = engine.watch(for: walker)
        if let refusal = WatchErasure.refusal(watch) { return refusal }
        guard watch != nil else { return nil }  // never seen, or already erased
        let clears = WatchErasure.clears(walker, prefix: options.prefix, now: clock.now())
        do {
            // Behind any status or incident state of this walker already queued: the publisher
            // sends a walker's retained rows in order, so the empty ones are the last word.
            publisher.enqueue(try await store.erase(walker, clearing: clears))
        } catch {
            logger.error("could not erase a watch", metadata: ["walker": "\(walker)", "error": "\(error)"])
            return .storeError
        }
        engine.remove(walker)
        receipts?.forget(walker)
        return nil
    }

    /// Watches first, effects second. If SQLite fails the messages still go out: an escalation
    /// that is published but not remembered beats one that is remembered but never sent. Action
    /// answers are the exception: an answer promises the action is recorded, so they wait for a
    /// commit that succeeds (the device repeats meanwhile; the watch in memory drops the repeat).
    /// Returns false when the commit failed (the caller keeps the watches and the answers).
    private func persistAndPublish(
        _ watches: [Watch], _ outbox: [OutboxItem],
        answers: inout [OutboxItem]
    ) async -> Bool {
        let items = answers + outbox
        do {
            publisher.enqueue(try await store.commit(watches: watches, outbox: items))
            answers = []
            return true
        } catch {
            logger.critical(
                "could not persist watches; publishing anyway, retrying the write",
                metadata: [
                    "watches": "\(watches.count)", "outbox": "\(outbox.count)", "error": "\(error)",
                ])
            publisher.enqueue(outbox.filter { !$0.waitsForCommit }.map { OutboxRow(seq: -1, item: $0) })
            answers = items.filter(\.waitsForCommit)
            return false
        }
    }

    private func logDecisions(_ walker: WalkerID, _ actions: [WatchAction]) {
        for action in actions {
            switch action {
            case .escalate(let draft):
                logger.warning(
                    "escalating",
                    metadata: [
                        "walker": "\(walker)", "reason": "\(draft.reason.rawValue)", "level": "\(draft.level.rawValue)",
                        "duress": "\(draft.duress)",
                    ])
            case .prompt:
                logger.debug("check-in prompt", metadata: ["walker": "\(walker)"])
            case .publishStatus(let status):
                logger.debug("status", metadata: ["walker": "\(walker)", "state": "\(status.state.rawValue)"])
            case .publishIncident(let incident):
                logger.info(
                    "incident",
                    metadata: [
                        "walker": "\(walker)", "incident": "\(incident.incident)",
                        "state": "\(incident.state.rawValue)",
                        "level": "\(incident.level.rawValue)", "duress": "\(incident.duress)",
                    ])
            case .publishArrival(let arrival):
                logger.info(
                    "walk arrived", metadata: ["walker": "\(walker)", "automatic": "\(arrival.automatic)"])
            case .answerDesk(let result):
                logger.notice(
                    "desk close answered",
                    metadata: [
                        "walker": "\(walker)", "id": "\(result.id)", "incident": "\(result.incident ?? "-")",
                        "ok": "\(result.ok)", "error": "\(result.error?.rawValue ?? "-")",
                    ])
            case .answer(let result):
                logger.debug(
                    "action answered",
                    metadata: [
                        "walker": "\(walker)", "ok": "\(result.ok)", "error": "\(result.error?.code ?? "-")",
                    ])
            }
        }
    }
}
