import Foundation
import Logging
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import ServiceLifecycle

/// The notifier's loop: keeps contact lists, admits each new escalation once (by id) with its
/// plan into the ledger, and hands it to the ``DeliveryRunner``. Escalations are delivered
/// concurrently; unfinished ones in the ledger are resumed at start.
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

    public init(
        settings: NotifierSettings, bus: any MessageBus, prefix: String, ledger: DeliveryLedger,
        channels: [any NotificationChannel], clock: any NotifierClock, logger: Logger,
        book: ContactBook = ContactBook()
    ) async throws {
        self.book = book
        // Subscribed here, at build time, so that by the time the runner announces `online`
        // the notifier is listening. Contacts first, so their retained lists are on their way
        // before any escalation.
        contacts = try await bus.subscribe(
            TopicFilter.every(.contacts, prefix: prefix).rawValue, qos: .atLeastOnce)
        escalations = try await bus.subscribe(
            TopicFilter.every(.escalation, prefix: prefix).rawValue,
            qos: .atLeastOnce)
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
        await withDiscardingTaskGroup { group in
            group.addTask { [book, clock, settings] in
                try? await clock.sleep(seconds: settings.contactsSettle)
                await book.settle()  // also on cancellation, so no escalation waits forever
            }
            group.addTask { [contacts] in
                for await message in contacts.cancelOnGracefulShutdown() { await handle(message) }
            }
            for (event, plan) in unfinished {
                group.addTask { await runner.run(event, plan: plan) }
            }
            // Ids claimed by this process: a duplicate is dropped here, in arrival order, before
            // any delivery starts; the ledger catches those from before a restart.
            var claimed = Set(unfinished.map(\.event.id))
            for await message in escalations.cancelOnGracefulShutdown() {
                guard let event = await accept(message) else { continue }
                guard claimed.insert(event.id).inserted else {
                    logger.info("duplicate escalation ignored", metadata: ["escalation": "\(event.id)"])
                    continue
                }
                group.addTask { await deliver(event) }
            }
            // Shutting down: stop retries; the ledger keeps what is left for the next start.
            group.cancelAll()
        }
    }

    /// The notifier's part of an account deletion: the walker's escalations and deliveries leave
    /// the ledger, and its contact list leaves the book. A failed write is `storeError`, and `web`
    /// asks again; asking again is harmless. contacts-store clears the retained list, whose empty
    /// message leaves an empty list here until the next start. The watchdog refuses the erasure
    /// while an incident is open, so no delivery of the walker's is expected to be running.
    public func erase(_ walker: WalkerID) async -> EraseReport.Failure? {
        do {
            try await ledger.erase(walker)
        } catch {
            logger.error("ledger rows not erased", metadata: ["walker": "\(walker)", "error": "\(error)"])
            return .storeError
        }
        await book.forget(walker)
        return nil
    }

    private func accept(_ message: MQTTMessage) async -> EscalationEvent? {
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
        switch NotifierIntake.classify(message, prefix: prefix) {
        case .success(.contacts(let walker, let list)): await book.update(walker, contacts: list)
        case .success(.escalation): break
        case .failure(let refusal):
            await rejections.reject(
                reason: refusal.code, topicKind: refusal.kind, walker: refusal.walker, now: clock.now())
        }
    }

    /// Plans, admits (once per id) and delivers one escalation.
    func deliver(_ event: EscalationEvent) async {
        let meta: Logger.Metadata = ["escalation": "\(event.id)", "walker": "\(event.walker)"]
        let plan: DeliveryPlan
        do {
            if try await ledger.knows(event.id) {
                logger.info("duplicate escalation ignored", metadata: meta)
                return
            }
            let contacts = await book.contacts(for: event.walker)
            plan = PlanBuilder.plan(
                for: event, contacts: contacts, emergency: settings.emergency,
                now: clock.now(), timeZone: settings.timeZone)
            let targets = channels.flatMap { channel in channel.targets(for: plan).map { (channel.name, $0) } }
            guard try await ledger.admit(event, plan: plan, targets: targets, now: clock.now()) else {
                logger.info("duplicate escalation ignored", metadata: meta)
                return
            }
            logger.notice(
                "escalation accepted",
                metadata: meta.merging([
                    "reason": "\(event.reason.rawValue)", "level": "\(event.level.rawValue)",
                    "recipients": "\(plan.recipients.count)", "undialable": "\(plan.undialable.count)",
                ]) { $1 })
        } catch {
            // Not admitted: a redelivery or the watchdog's re-publish will bring it back.
            logger.error("escalation could not be recorded", metadata: meta.merging(["error": "\(error)"]) { $1 })
            return
        }
        await runner.run(event, plan: plan)
    }
}
