import Foundation
import Logging
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import ServiceLifecycle

/// The notifier's loop: keeps contact lists, admits each new escalation once (by id) into its
/// incident's ladder (``LadderEngine``), and hands every job a ladder step makes to the
/// ``DeliveryRunner``. Jobs are delivered concurrently; unfinished ones in the ledger are
/// resumed at start. The ladder's own loops (its clock, incident ends, acknowledgements, gateway
/// receipts) are in NotifierService+Ladder.swift.
public struct NotifierService: Service {
    let settings: NotifierSettings
    let bus: any MessageBus
    let prefix: String
    let ledger: DeliveryLedger
    let channels: [any NotificationChannel]
    let runner: DeliveryRunner
    let clock: any NotifierClock
    let rejections: RejectionReporter
    let logger: Logger
    /// The contact lists this service keeps (exposed so tests can await a list's arrival).
    public let book: ContactBook
    let contacts: MQTTSubscription
    let escalations: MQTTSubscription
    let incidents: MQTTSubscription
    let acknowledgements: MQTTSubscription
    let gatewayReceipts: MQTTSubscription
    /// Which inputs are this instance's when the walkers are split N ways.
    let share: NotifierShare
    let engine: LadderEngine
    /// The ladder's time: its deadlines, and the times it records (tests may give it its own).
    let ladderClock: any NotifierClock
    let wakeup = LadderWakeup()
    let publisher: LadderPublisher
    /// Where ladder steps hand their jobs to the runner (consumed in ``run()``).
    let jobs: AsyncStream<LadderJob>
    let jobSink: AsyncStream<LadderJob>.Continuation

    /// - Parameters:
    ///   - ladderClock: the ladder's clock; `clock` when nil.
    ///   - partition: this instance's partition of the walkers, when it is one of several
    ///     (``NotifierShare``); nil for one notifier for every walker.
    public init(
        settings: NotifierSettings, bus: any MessageBus, prefix: String, ledger: DeliveryLedger,
        channels: [any NotificationChannel], clock: any NotifierClock, logger: Logger,
        book: ContactBook = ContactBook(), ladderClock: (any NotifierClock)? = nil,
        partition: WalkerPartition? = nil
    ) async throws {
        self.book = book
        let share = NotifierShare(partition)
        self.share = share
        // Subscribed here, at build time, so that by the time the runner announces `online`
        // the notifier is listening. Contacts first, so their retained lists are on their way
        // before any escalation.
        contacts = try await bus.subscribe(
            TopicFilter.every(.contacts, prefix: prefix).rawValue, qos: .atLeastOnce)
        escalations = try await bus.subscribe(
            TopicFilter.every(.escalation, prefix: prefix).rawValue,
            qos: .atLeastOnce)
        incidents = try await bus.subscribe(TopicFilter.every(.incident, prefix: prefix).rawValue, qos: .atLeastOnce)
        if partition != nil {
            // Another instance's walkers are dropped on arrival, before any decoding (and checked
            // again as each is read: retained messages may arrive before the filter is set).
            for subscription in [contacts, escalations, incidents] {
                subscription.admitOnly { share.admits(topic: $0, prefix: prefix) }
            }
        }
        acknowledgements = try await bus.subscribe(
            TopicFilter.every(.acknowledgementRequest, prefix: prefix).rawValue, qos: .atLeastOnce)
        gatewayReceipts = try await bus.subscribe(
            TopicFilter.every(.gatewayReceipt, prefix: prefix).rawValue, qos: .atLeastOnce)
        self.ladderClock = ladderClock ?? clock
        engine = LadderEngine(
            ledger: ledger, settings: settings, webhookEnabled: channels.contains { $0.name == "webhook" },
            targets: { plan in
                channels.flatMap { channel in
                    plan.reaches(channel.name) ? channel.targets(for: plan).map { (channel.name, $0) } : []
                }
            }, newCode: { share.mintCode() })
        publisher = LadderPublisher(bus: bus, prefix: prefix, logger: logger)
        (jobs, jobSink) = AsyncStream.makeStream(of: LadderJob.self)
        self.settings = settings
        self.bus = bus
        self.prefix = prefix
        self.ledger = ledger
        self.channels = channels
        self.clock = clock
        self.logger = logger
        runner = DeliveryRunner(
            ledger: ledger, channels: channels, policy: settings.retry, clock: clock, bus: bus,
            prefix: prefix, logger: logger)
        rejections = RejectionReporter(service: .notifier, prefix: prefix, bus: bus, logger: logger)
    }

    public func run() async throws {
        let unfinished = try await ledger.unfinished()
        if !unfinished.isEmpty {
            logger.notice("resuming unfinished deliveries", metadata: ["count": "\(unfinished.count)"])
        }
        for published in (try? await engine.openStates()) ?? [] { await publisher.publish(published) }
        await withDiscardingTaskGroup { group in
            group.addTask { [book, clock, settings] in
                try? await clock.sleep(seconds: settings.contactsSettle)
                await book.settle()  // also on cancellation, so no escalation waits forever
            }
            group.addTask { [contacts] in
                for await message in contacts.cancelOnGracefulShutdown() { await handle(message) }
            }
            group.addTask { await runJobs(resuming: unfinished) }
            group.addTask { await runLadderClock() }
            group.addTask { await consumeIncidents() }
            group.addTask { await consumeAcknowledgements() }
            group.addTask { await consumeGatewayReceipts() }
            // Ids claimed by this process: a duplicate is dropped here, in arrival order, before
            // any delivery starts; the ledger catches those from before a restart.
            let claimed = ClaimedEscalations(unfinished.map(\.event.id))
            for await message in escalations.cancelOnGracefulShutdown() {
                guard let event = await accept(message) else { continue }
                guard claimed.claim(event.id) else {
                    logger.info("duplicate escalation ignored", metadata: ["escalation": "\(event.id)"])
                    group.addTask { await confirmIfRecorded(event) }
                    continue
                }
                group.addTask { if await !deliver(event) { claimed.release(event.id) } }
            }
            // Shutting down: stop retries; the ledger keeps what is left for the next start.
            jobSink.finish()
            group.cancelAll()
        }
    }

    /// Runs every job handed over, each in its own task, until shutdown.
    private func runJobs(resuming unfinished: [(event: EscalationEvent, plan: DeliveryPlan)]) async {
        await withDiscardingTaskGroup { group in
            for (event, plan) in unfinished {
                // Resumed without what was chained to it: every job is in the ledger on its own.
                group.addTask { await run(LadderJob(event: event, plan: plan)) }
            }
            for await job in jobs {
                group.addTask { await run(job) }
            }
        }
    }

    /// Delivers one job, notes it on the ladder, then the jobs that wait for it.
    private func run(_ job: LadderJob) async {
        await runner.run(job.event, plan: job.plan)
        await noteDelivered(job)
        for next in job.then where !Task.isCancelled { await run(next) }
    }

    /// The notifier's part of an account deletion: the walker's escalations and deliveries leave
    /// the ledger, and its contact list leaves the book. A failed write is `storeError`, and `web`
    /// asks again; asking again is harmless. contacts-store clears the retained list, whose empty
    /// message leaves an empty list here until the next start. The watchdog refuses the erasure
    /// while an incident is open, so no delivery of the walker's is expected to be running.
    public func erase(_ walker: WalkerID) async -> EraseReport.Failure? {
        do {
            try await ledger.erase(walker)
            try await publisher.clear(walker)
        } catch {
            logger.error("ledger rows not erased", metadata: ["walker": "\(walker)", "error": "\(error)"])
            return .storeError
        }
        await book.forget(walker)
        return nil
    }

    private func accept(_ message: MQTTMessage) async -> EscalationEvent? {
        guard share.admits(topic: message.topic, prefix: prefix) else { return nil }
        switch NotifierIntake.classify(message, prefix: prefix) {
        case .success(.escalation(let event)): return event
        case .success(.contacts): return nil
        case .failure(let refusal):
            await rejections.reject(
                reason: refusal.code, topicKind: refusal.kind, walker: refusal.walker, now: clock.now())
            return nil
        }
    }

    private func handle(_ message: MQTTMessage) async {
        guard share.admits(topic: message.topic, prefix: prefix) else { return }
        switch NotifierIntake.classify(message, prefix: prefix) {
        case .success(.contacts(let walker, let list)): await book.update(walker, contacts: list)
        case .success(.escalation): break
        case .failure(let refusal):
            await rejections.reject(
                reason: refusal.code, topicKind: refusal.kind, walker: refusal.walker, now: clock.now())
        }
    }

    /// Admits one escalation into its incident's ladder (once per id) and delivers its job; the
    /// watchdog gets a receipt once the ledger has it. False when it could not be recorded.
    @discardableResult
    func deliver(_ event: EscalationEvent) async -> Bool {
        let meta: Logger.Metadata = [
            "escalation": "\(event.id)", "walker": "\(event.walker)", "incident": "\(event.incident)",
        ]
        let outcome: LadderEngine.Outcome
        do {
            if try await ledger.knows(event.id) {
                logger.info("duplicate escalation ignored", metadata: meta)
                await confirm(event)
                return true
            }
            let contacts = await book.contacts(for: event.walker)
            outcome = try await engine.escalation(event, contacts: contacts, now: ladderClock.now())
        } catch {
            // Not admitted, and no receipt: the watchdog's next copy will bring it back.
            logger.error("escalation could not be recorded", metadata: meta.merging(["error": "\(error)"]) { $1 })
            return false
        }
        guard !outcome.duplicate else {
            logger.info("duplicate escalation ignored", metadata: meta)
            await confirm(event)
            return true
        }
        let plan = outcome.jobs.first { $0.event.id == event.id }?.plan
        logger.notice(
            "escalation accepted",
            metadata: meta.merging([
                "reason": "\(event.reason.rawValue)", "level": "\(event.level.rawValue)",
                "recipients": "\(plan?.recipients.count ?? 0)", "undialable": "\(plan?.undialable.count ?? 0)",
            ]) { $1 })
        await apply(outcome)
        wakeup.wake()
        await confirm(event)
        return true
    }
}
