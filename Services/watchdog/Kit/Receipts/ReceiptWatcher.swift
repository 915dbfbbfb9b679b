import Foundation
import Logging
import Metrics
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import ServiceLifecycle
import Synchronization

/// The IO around ``EscalationReceipts``: hears the notifier's receipts on
/// `_escalations/received/+`, records them in the outbox (`receivedAt`), and hands every
/// escalation whose wait ran out back to the ``OutboxPublisher``, which publishes it again with
/// its own id. At start, every escalation sent before but never receipted goes out again at once.
final class ReceiptWatcher: Sendable {
    /// Largest receipt read: an id of up to 128 characters and the version, with room to spare.
    static let maxPayloadBytes = 1_024

    private let bus: any MessageBus
    private let store: WatchStore
    private let clock: any WatchClock
    private let prefix: String
    private let partition: WalkerPartition?
    private let reporter: RejectionReporter
    private let logger: Logger
    /// The waits and the alarm that wakes for the next, changed together under one lock, so a
    /// wait that starts while another is being taken is never left unarmed.
    private let state: Mutex<(receipts: EscalationReceipts, alarm: DeadlineAlarm?)>
    private let subscription = Mutex<MQTTSubscription?>(nil)
    private let republished = Counter(label: "safewalk_watchdog_escalations_republished_total")
    private let receipts = Counter(label: "safewalk_watchdog_escalation_receipts_total")

    init(
        bus: any MessageBus, store: WatchStore, clock: any WatchClock, prefix: String,
        partition: WalkerPartition? = nil, firstWait: Double, reporter: RejectionReporter, logger: Logger
    ) {
        self.bus = bus
        self.store = store
        self.clock = clock
        self.prefix = prefix
        self.partition = partition
        self.reporter = reporter
        self.logger = logger
        state = Mutex((EscalationReceipts(firstWait: firstWait), nil))
    }

    /// Subscribed with the watchdog's inputs, before `online`: the receipts of this instance's
    /// walkers only, when there is a partition (the engine routes each to the walker's).
    func subscribe() async throws {
        guard subscription.withLock({ $0 == nil }) else { return }
        let made = try await bus.subscribe(
            TopicFilter.partitionInput(.escalationReceived, partition: partition, prefix: prefix).rawValue,
            qos: .atLeastOnce)
        subscription.withLock { $0 = made }
    }

    /// The publisher's word that the broker acknowledged a row at `at` (the watchdog's clock).
    func published(_ row: OutboxRow, at: EpochSeconds) {
        guard row.item.kind == .escalation else { return }
        state.withLock { state in
            state.receipts.published(row, now: at)
            state.alarm?.arm(state.receipts.nextDue)
        }
    }

    func forget(_ walker: WalkerID) { state.withLock { $0.receipts.forget(walker) } }

    /// Ends ``run(republishingThrough:)``: the watchdog's loop has stopped.
    func stop() { subscription.withLock { $0 }?.cancel() }

    /// Until the subscription ends (shutdown).
    func run(republishingThrough publisher: OutboxPublisher) async throws {
        let unreceived = try await store.awaitingReceipt()
        if !unreceived.isEmpty {
            logger.notice(
                "publishing again escalations the notifier never receipted", metadata: ["count": "\(unreceived.count)"])
            publisher.enqueue(unreceived)
        }
        let wakeUp = DeadlineAlarm(clock: clock) { [weak self] in self?.fireDue(publisher) }
        state.withLock { state in
            state.alarm = wakeUp
            wakeUp.arm(state.receipts.nextDue)
        }
        defer {
            state.withLock { $0.alarm = nil }
            wakeUp.cancel()
        }
        guard let subscription = subscription.withLock({ $0 }) else { return }
        for await batch in subscription.batches.cancelOnGracefulShutdown() {
            await take(batch)
        }
    }

    private func fireDue(_ publisher: OutboxPublisher) {
        let rows = state.withLock { state in
            let rows = state.receipts.takeDue(now: clock.now())
            state.alarm?.arm(state.receipts.nextDue)
            return rows
        }
        for row in rows {
            republished.increment()
            logger.warning(
                "no receipt from the notifier; publishing the escalation again",
                metadata: ["walker": "\(row.item.walker)", "id": "\(row.item.key)"])
        }
        publisher.enqueue(rows)
    }

    private func take(_ batch: [MQTTMessage]) async {
        let now = clock.now()
        var received: [(id: String, walker: WalkerID)] = []
        for message in batch {
            switch ReceiptIntake.read(message, prefix: prefix) {
            case .success(let receipt):
                receipts.increment()
                if state.withLock({ $0.receipts.received(receipt.id, walker: receipt.walker, now: now) }) {
                    received.append(receipt)
                }
            case .failure(let rejection):
                await reporter.reject(
                    reason: rejection.code, topicKind: .escalationReceived, walker: rejection.walker, now: now)
            }
        }
        guard !received.isEmpty else { return }
        do {
            try await store.markReceived(received, at: now)
        } catch {
            // Only the record is missing: a restart publishes these again, and the notifier
            // answers the copies without telling anyone twice.
            logger.error("could not record escalation receipts", metadata: ["error": "\(error)"])
        }
    }
}

/// Validates a receipt: only the notifier may publish one (mosquitto/acl), but like every input
/// it is hostile until proven otherwise. Pure.
enum ReceiptIntake {
    struct Refusal: Error, Equatable {
        var code: String
        var walker: WalkerID?
    }

    static func read(_ message: MQTTMessage, prefix: String) -> Result<(id: String, walker: WalkerID), Refusal> {
        guard let topic = Topic.parse(message.topic, prefix: prefix), topic.kind == .escalationReceived,
            case .walker(let walker) = topic.subject
        else { return .failure(Refusal(code: "unexpected_topic", walker: nil)) }
        let receipt: EscalationReceipt
        do {
            receipt = try SafeWalkJSON.decode(
                EscalationReceipt.self, from: message.payload, maxBytes: ReceiptWatcher.maxPayloadBytes)
        } catch {
            return .failure(Refusal(code: error.code, walker: walker))
        }
        guard DeskCloseIntake.isValidID(receipt.id) else {
            return .failure(Refusal(code: "invalid_id", walker: walker))
        }
        return .success((receipt.id, walker))
    }
}
