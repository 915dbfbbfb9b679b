import Foundation
import Logging
import Metrics
import SafeWalkCore
import SafeWalkMQTT

/// Publishes committed outbox rows at QoS 1 and marks them sent only after the broker's PUBACK.
/// Each walker's rows go out in order (a stale retained status never overtakes a newer one);
/// different walkers' rows go out concurrently, so one walker never waits for another's ack.
/// While the broker is away the publishes wait inside the MQTT client and go out on reconnect.
public final class OutboxPublisher: Sendable {
    /// Called after each PUBACK, with the clock's time (benchmarks measure lateness with it).
    public typealias Observer = @Sendable (OutboxRow, EpochSeconds) -> Void

    private let bus: any MessageBus
    private let store: WatchStore
    private let clock: any WatchClock
    private let logger: Logger
    private let observer: Observer?
    let queue = WorkQueue<OutboxRow>()
    private let escalationsSent = Counter(label: "safewalk_watchdog_escalations_published_total")
    private let publishFailures = Counter(label: "safewalk_watchdog_publish_failures_total")

    public init(bus: any MessageBus, store: WatchStore, clock: any WatchClock, logger: Logger,
                observer: Observer? = nil) {
        self.bus = bus
        self.store = store
        self.clock = clock
        self.logger = logger
        self.observer = observer
    }

    func enqueue(_ rows: [OutboxRow]) { queue.append(contentsOf: rows) }

    /// Runs until `finish()` (or cancellation). Rows still unsent stay in SQLite for the next start.
    func run() async {
        while let rows = await queue.next() {
            guard !rows.isEmpty else { continue }
            var byWalker: [WalkerID: [OutboxRow]] = [:]
            for row in rows { byWalker[row.item.walker, default: []].append(row) }
            let sent = await withTaskGroup(of: [OutboxRow].self) { group in
                for (_, walkerRows) in byWalker {
                    group.addTask { await self.publishInOrder(walkerRows) }
                }
                var sent: [OutboxRow] = []
                for await done in group { sent.append(contentsOf: done) }
                return sent
            }
            do {
                try await store.markSent(sent.filter { $0.seq >= 0 }, at: clock.now())
            } catch {
                // At worst they are published again after a restart with the same ids.
                logger.error("could not mark outbox rows sent", metadata: ["error": "\(error)"])
            }
        }
    }

    func finish() { queue.finish() }

    private func publishInOrder(_ rows: [OutboxRow]) async -> [OutboxRow] {
        var sent: [OutboxRow] = []
        for row in rows {
            let message = MQTTMessage(topic: row.item.topic, payload: row.item.payload, qos: .atLeastOnce,
                                      retain: row.item.retain)
            do {
                try await bus.publish(message)
            } catch {
                // Shutdown or cancellation: the row stays unsent and is re-published on restart.
                publishFailures.increment()
                logger.warning("publish failed; kept in outbox", metadata: [
                    "walker": "\(row.item.walker)", "kind": "\(row.item.kind.rawValue)", "error": "\(error)"])
                return sent
            }
            sent.append(row)
            if row.item.kind == .escalation {
                escalationsSent.increment()
                logger.info("escalation published", metadata: ["walker": "\(row.item.walker)", "id": "\(row.item.key)"])
            }
            observer?(row, clock.now())
        }
        return sent
    }
}
