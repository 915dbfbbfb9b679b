import Foundation
import Logging
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import SafeWalkStorage
import TestSupport
import WatchdogKit

/// The real ``WatchdogService`` on an in-memory bus, a real SQLite file and a manual clock.
final class ServiceHarness: Sendable {
    let bus: InMemoryMessageBus
    let clock: ManualClock
    let store: WatchStore
    let directory: URL
    let reporter: RejectionReporter
    let service: WatchdogService
    let task: Task<Void, any Error>

    static let thresholds = SafetyThresholds(
        checkInInterval: 60, noReplyAfter: 120, noMovementAfter: 100_000,
        offlineGrace: 60)

    init(
        now: EpochSeconds = 1_000, store existing: (WatchStore, URL)? = nil,
        bus: InMemoryMessageBus = InMemoryMessageBus(),
        thresholds: SafetyThresholds = ServiceHarness.thresholds, positionWriteDelay: Double = 0,
        receiptWait: Double? = nil, brokerLink: BrokerLink.Settings? = nil, partition: WalkerPartition? = nil
    ) async throws {
        self.bus = bus
        clock = ManualClock(now: now)
        if let existing {
            (store, directory) = existing
        } else {
            let (pool, directory) = try SQLiteStore.temporary(migrator: WatchStore.migrator)
            store = WatchStore(database: pool)
            self.directory = directory
        }
        var logger = Logger(label: "test.watchdog")
        logger.logLevel = .critical
        reporter = RejectionReporter(service: .watchdog, prefix: "safewalk", bus: bus, logger: logger)
        service = WatchdogService(
            bus: bus, store: store, clock: clock,
            options: .init(
                prefix: "safewalk", thresholds: thresholds, positionWriteDelay: positionWriteDelay,
                receiptWait: receiptWait, brokerLink: brokerLink, partition: partition),
            reporter: reporter, logger: logger)
        task = Task { [service] in try await service.run() }
        await service.waitUntilReady()
    }

    static func freshStore() throws -> (WatchStore, URL) {
        let (pool, directory) = try SQLiteStore.temporary(migrator: WatchStore.migrator)
        return (WatchStore(database: pool), directory)
    }

    func send(_ topic: Topic, _ value: some Encodable) async throws {
        try await bus.publish(topic.name(), payload: try SafeWalkJSON.encode(value))
    }

    func act(_ walker: String, _ kind: Action.Kind, id: String = UUID().uuidString) async throws {
        try await send(.action(try WalkerID(walker)), Action(id: id, kind: kind))
    }

    func stop() async {
        task.cancel()
        _ = await task.result
    }

    func cleanUp() async {
        await stop()
        try? FileManager.default.removeItem(at: directory)
    }
}

extension MQTTMessage {
    func decoded<T: Decodable>(_ type: T.Type) throws -> T { try SafeWalkJSON.decode(type, from: payload) }
}
