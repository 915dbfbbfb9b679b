import Foundation
import Logging
import Metrics
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import Synchronization

/// Publishes committed outbox rows at QoS 1 and marks them sent only after the broker's PUBACK.
///
/// Escalations, prompts and answers go out at once, each on its own task, so one walker never
/// waits for another's acknowledgement. Retained states (statuses, incident states) are
/// superseded by the next one with the same key, so they share one lower-priority lane: per
/// wake-up only the newest row of each key is sent, at most `statusConcurrency` at a time in all,
/// so a burst cannot crowd escalations out of the client's in-flight window; a topic's rows go
/// out one after the other (``RetainedRounds``), so they never overtake each other and the close
/// of an incident always precedes the next incident. While the broker is away the publishes wait
/// inside the MQTT client and go out on reconnect; rows not acknowledged by shutdown stay in
/// SQLite for the next start. Acknowledged rows are marked sent in groups, up to `sentMarkDelay`
/// after their PUBACK (``SentMarks``), and every waiting mark is written at shutdown.
public final class OutboxPublisher: Sendable {
    /// Called after each PUBACK, with the clock's time (benchmarks measure lateness with it).
    public typealias Observer = @Sendable (OutboxRow, EpochSeconds) -> Void

    private let bus: any MessageBus
    private let store: WatchStore
    private let clock: any WatchClock
    private let logger: Logger
    private let observer: Observer?
    private let statusConcurrency: Int
    private let sentMarkDelay: Double
    /// Acknowledged rows whose sent mark waits (for tests).
    private let waitingMarks = Mutex(0)
    let queue = WorkQueue<OutboxRow>()
    private let retained = WorkQueue<OutboxRow>()
    private let acknowledged = WorkQueue<OutboxRow>()
    private let escalationsSent = Counter(label: "safewalk_watchdog_escalations_published_total")
    private let publishFailures = Counter(label: "safewalk_watchdog_publish_failures_total")

    public init(
        bus: any MessageBus, store: WatchStore, clock: any WatchClock, logger: Logger,
        statusConcurrency: Int = 64, sentMarkDelay: Double = 0, observer: Observer? = nil
    ) {
        self.bus = bus
        self.store = store
        self.clock = clock
        self.logger = logger
        self.statusConcurrency = max(1, statusConcurrency)
        self.sentMarkDelay = sentMarkDelay
        self.observer = observer
    }

    func enqueue(_ rows: [OutboxRow]) { queue.append(contentsOf: rows) }

    func finish() { queue.finish() }

    /// Runs until `finish()` (or cancellation) and everything handed over was attempted.
    func run() async {
        async let marking: Void = markSentLoop()
        await withDiscardingTaskGroup { group in
            group.addTask { await self.retainedLoop() }
            while let rows = await queue.next() {
                retained.append(contentsOf: rows.filter(\.item.isRetainedState))
                for row in rows where !row.item.isRetainedState {
                    group.addTask { if await self.publish(row) { self.acknowledged.append(contentsOf: [row]) } }
                }
            }
            retained.finish()
        }
        acknowledged.finish()
        await marking
    }

    private func retainedLoop() async {
        while let rows = await retained.next() {
            for round in RetainedRounds.rounds(rows) {
                for start in stride(from: 0, to: round.count, by: statusConcurrency) {
                    let chunk = round[start..<min(start + statusConcurrency, round.count)]
                    await withDiscardingTaskGroup { group in
                        for row in chunk {
                            group.addTask {
                                if await self.publish(row) { self.acknowledged.append(contentsOf: [row]) }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Acknowledged rows whose sent mark is still waiting (for tests).
    var sentMarksWaiting: Int { waitingMarks.withLock { $0 } }

    private func markSentLoop() async {
        let alarm = DeadlineAlarm(clock: clock) { [acknowledged] in acknowledged.poke() }
        defer { alarm.cancel() }
        var marks = SentMarks(delay: sentMarkDelay)
        while let rows = await acknowledged.next() {
            let now = clock.now()
            marks.acknowledged(rows, at: now)
            let due = marks.takeDue(now: now)
            waitingMarks.withLock { $0 = marks.pending.count }
            await markSent(due, at: now)
            alarm.arm(marks.dueAt)
        }
        let rest = marks.takeAll()
        waitingMarks.withLock { $0 = 0 }
        await markSent(rest, at: clock.now())
    }

    private func markSent(_ rows: [OutboxRow], at now: EpochSeconds) async {
        do {
            try await store.markSent(rows, at: now)
        } catch {
            // At worst they are published again after a restart, with the same ids.
            logger.error("could not mark outbox rows sent", metadata: ["error": "\(error)"])
        }
    }

    private func publish(_ row: OutboxRow) async -> Bool {
        let message = MQTTMessage(
            topic: row.item.topic, payload: row.item.payload, qos: .atLeastOnce,
            retain: row.item.retain)
        do {
            try await bus.publish(message)
        } catch {
            // Shutdown or cancellation: the row stays unsent and is re-published on restart.
            publishFailures.increment()
            logger.warning(
                "publish failed; kept in outbox",
                metadata: [
                    "walker": "\(row.item.walker)", "kind": "\(row.item.kind.rawValue)", "error": "\(error)",
                ])
            return false
        }
        if row.item.kind == .escalation {
            escalationsSent.increment()
            logger.info("escalation published", metadata: ["walker": "\(row.item.walker)", "id": "\(row.item.key)"])
        }
        observer?(row, clock.now())
        return true
    }
}
