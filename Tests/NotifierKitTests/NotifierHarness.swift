import Foundation
import GRDB
import Logging
import NotifierKit
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkStorage
import TestSupport
import Testing

/// The notifier service wired as in production (real SQLite file, production channels), on an
/// in-memory bus with a virtual clock, for tests of delivery logic that need no broker.
struct NotifierHarness {
    let bus: InMemoryMessageBus
    let clock: VirtualClock
    /// The ladder's clock: its own unless a test shares one, so that delivery tests on an
    /// auto-advancing clock never see a reminder or a tier 2.
    let ladderClock: VirtualClock
    let ledger: DeliveryLedger
    let service: NotifierService
    let directory: URL
    let task: Task<Void, any Error>
    let receipts: MQTTSubscription
    let alerts: MQTTSubscription

    /// Starts the service with `channels` built from the bus; `contacts` are published retained
    /// first, and the service has read them when this returns.
    static func start(
        contacts: [Contact] = Fixtures.threeWithOneUndialable, clock: VirtualClock,
        settings: [String: String] = [:], ladderClock: VirtualClock = VirtualClock(),
        bus: InMemoryMessageBus = InMemoryMessageBus(), database: (DatabasePool, URL)? = nil,
        channels: (InMemoryMessageBus) -> [any NotificationChannel]
    ) async throws -> NotifierHarness {
        let (pool, directory) = try database ?? SQLiteStore.temporary(migrator: DeliveryLedger.migrator)
        let ledger = DeliveryLedger(pool: pool)
        var logger = Logger(label: "test.notifier")
        logger.logLevel = .warning
        let receipts = try await bus.subscribe(TopicFilter.every(.delivery).rawValue, qos: .atLeastOnce)
        let alerts = try await bus.subscribe(TopicFilter.every(.alert).rawValue, qos: .atLeastOnce)
        try await bus.publish(
            Topic.contacts(Fixtures.walker).name(),
            payload: SafeWalkJSON.encode(ContactList(contacts: contacts)), retain: true)
        let service = try await NotifierService(
            settings: try Fixtures.settings(settings), bus: bus, prefix: Fixtures.prefix, ledger: ledger,
            channels: channels(bus), clock: clock, logger: logger, ladderClock: ladderClock)
        let task = Task { try await service.run() }
        // A readiness wait, not a timing check: the start of a full parallel run on two cores once
        // kept seven harnesses from reading their retained list within 5 s.
        try await withTimeout(60, "contacts read") { await service.book.waitForList(Fixtures.walker) }
        return NotifierHarness(
            bus: bus, clock: clock, ladderClock: ladderClock, ledger: ledger, service: service, directory: directory,
            task: task, receipts: receipts, alerts: alerts)
    }

    func publish(_ event: EscalationEvent) async throws {
        try await bus.publish(Topic.escalation(event.walker).name(), payload: SafeWalkJSON.encode(event))
    }

    /// The next `count` receipts, decoded.
    func nextReceipts(_ count: Int) async throws -> [DeliveryReceipt] {
        try await receipts.first(count, within: 10).map {
            try SafeWalkJSON.decoder().decode(DeliveryReceipt.self, from: $0.payload)
        }
    }

    func stop(keepingDatabase: Bool = false) async {
        task.cancel()
        _ = await task.result
        if !keepingDatabase { try? FileManager.default.removeItem(at: directory) }
    }
}
