import BenchSupport
import Foundation
import Logging
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import SafeWalkStorage
import Synchronization
import TestSupport
import WatchdogKit

/// N walkers whose walk ETAs all fall inside one window, through a real Mosquitto: lateness from
/// each deadline to the PUBACK of its escalation, and a subscriber that checks none is missed or
/// duplicated. Baseline in the same run: an ideal scheduler (no state machine, no SQLite) that
/// publishes the same two QoS 1 messages per deadline (a retained status and an escalation).
enum BrokerBench {
    static func run(walkers count: Int, window: Double, lead: Double) async throws -> Bool {
        // Production logging (not every packet) and production in-flight window; a queue big
        // enough that the observer's backlog is never dropped.
        let broker = try await MosquittoBroker.start(
            extraConfig: "max_queued_messages 2000000\nmax_inflight_messages 100",
            logPackets: false)
        defer { Task { await broker.shutdown() } }
        print(
            "watchdog-bench broker: \(count) walkers, deadlines spread over \(window) s, broker 127.0.0.1:\(broker.port)"
        )
        var logger = Logger(label: "bench")
        logger.logLevel = .error

        let baseline = try await baselinePhase(broker: broker, count: count, window: window, logger: logger)
        print("baseline (ideal scheduler, 2 QoS 1 publishes per deadline): lateness \(baseline.millisecondsSummary)")

        let (lateness, received, duplicates, unsent) = try await watchdogPhase(
            broker: broker, count: count, window: window, lead: lead, logger: logger)
        print(
            "watchdog (machine + heap + SQLite outbox + QoS 1): lateness deadline→PUBACK \(lateness.millisecondsSummary)"
        )
        print(
            "escalations: \(lateness.count) acknowledged, \(received) distinct received by a subscriber, \(duplicates) duplicates, \(count - received) missed, \(unsent) unsent in the outbox"
        )
        print(String(format: "ratio p99 watchdog/baseline: %.2f", lateness.percentile(99) / baseline.percentile(99)))
        return received == count && duplicates == 0 && lateness.count == count && unsent == 0
    }

    static func client(_ broker: MosquittoBroker, _ id: String, logger: Logger) async throws -> MQTTClient {
        let client = try MQTTClient(
            configuration: MQTTConfiguration(port: broker.port, clientID: id, cleanSession: true),
            logger: logger)
        try await client.connect()
        return client
    }

    static func baselinePhase(broker: MosquittoBroker, count: Int, window: Double, logger: Logger) async throws
        -> SortedSamples
    {
        let client = try await client(broker, "bench-baseline", logger: logger)
        let status = try SafeWalkJSON.encode(
            WatchStatus(
                state: .alert, watching: true, since: 0, reason: .walkOverdue,
                level: .amber, walk: WalkPlan(destination: "Library", eta: 0)))
        let escalation = try SafeWalkJSON.encode(
            EscalationEvent(
                id: UUID().uuidString, walker: try WalkerID("w0"), reason: .walkOverdue, level: .amber, at: 0,
                lastFix: FixSummary(lat: 30.28, lon: -97.73, acc: 5, tst: 0),
                walk: WalkPlan(destination: "Library", eta: 0)))
        let start = ContinuousClock.now + .seconds(1)
        let deadlines = (0..<count).map { start + .seconds(window * Double($0) / Double(count)) }
        let samples = Samples()
        await withTaskGroup(of: Void.self) { group in
            var next = 0
            while next < count {
                try? await Task.sleep(until: deadlines[next], tolerance: .milliseconds(1), clock: .continuous)
                let now = ContinuousClock.now
                while next < count, deadlines[next] <= now {
                    let n = next
                    group.addTask {
                        async let s: Void = client.publish(
                            "bench/w\(n)/status", payload: status, qos: .atLeastOnce, retain: true)
                        try? await client.publish("bench/w\(n)/escalation", payload: escalation, qos: .atLeastOnce)
                        try? await s
                        let late = Measure.elapsed(since: deadlines[n])
                        samples.append(late)
                    }
                    next += 1
                }
            }
        }
        await client.shutdown()
        return samples.sorted
    }

    static func watchdogPhase(
        broker: MosquittoBroker, count: Int, window: Double, lead: Double,
        logger: Logger
    ) async throws -> (SortedSamples, Int, Int, Int) {
        let directory = broker.directory.appendingPathComponent("watchdog-data")
        let database = try SQLiteStore.open(
            directory: directory, fileName: "watchdog.sqlite",
            migrator: WatchStore.migrator, logger: logger)
        let store = WatchStore(database: database)
        let clock = SystemWatchClock()
        let t0 = clock.now() + lead
        @Sendable func eta(_ n: Int) -> EpochSeconds { t0 + window * Double(n) / Double(count) }
        // Every walker is on a walk due inside the window; nothing else is due before an hour.
        var watches: [Watch] = []
        for n in 0..<count {
            let walker = try WalkerID("w\(n)")
            watches.append(
                Watch(
                    walker: walker,
                    timers: WatchTimers(
                        watchedSince: t0 - lead, lastCheckInAt: t0 - lead,
                        lastMovedAt: t0 - lead, walkETA: eta(n)),
                    walk: WalkPlan(destination: "Library", eta: eta(n)), stateSince: t0 - lead,
                    lastFix: FixSummary(lat: 30.28, lon: -97.73, acc: 5, tst: t0 - lead)))
            if watches.count == 50_000 {
                _ = try await store.commit(watches: watches, outbox: [])
                watches = []
            }
        }
        _ = try await store.commit(watches: watches, outbox: [])

        let observer = try await client(broker, "bench-observer", logger: logger)
        let subscription = try await observer.subscribe("safewalk/+/escalation", qos: .atLeastOnce)
        let sentinel = "safewalk/zz-sentinel/escalation"
        let counter = Task { () -> (Int, Int) in
            var seen = Set<String>()
            var total = 0
            for await batch in subscription.batches {
                for message in batch where message.topic != sentinel { total += 1; seen.insert(message.topic) }
                if batch.contains(where: { $0.topic == sentinel }) { break }
            }
            return (seen.count, total - seen.count)
        }

        let bus = try await client(broker, "bench-watchdog", logger: logger)
        let lateness = Samples()
        let firing = Samples()
        let service = WatchdogService(
            bus: bus, store: store, clock: clock,
            options: .init(
                prefix: "safewalk",
                thresholds: SafetyThresholds(
                    checkInInterval: 3_600, noReplyAfter: 3_600, noMovementAfter: 3_600, offlineGrace: 3_600)),
            reporter: RejectionReporter(service: .watchdog, prefix: "safewalk", bus: bus, logger: logger),
            logger: logger,
            observer: { row, ackedAt in
                guard row.item.kind == .escalation, let n = Int(row.item.walker.rawValue.dropFirst()) else { return }
                lateness.append(ackedAt - eta(n))
                firing.append(row.item.createdAt - eta(n))  // the wake-up that decided it (its `at`)
            })
        let running = Task { try await service.run() }
        await service.waitUntilReady()
        print(String(format: "watchdog restored %d watches; first deadline in %.1f s", count, t0 - clock.now()))
        // Real time in a benchmark: wait until every escalation was acknowledged (or give up),
        // then send a sentinel behind them so late duplicates would still be counted.
        let giveUp = ContinuousClock.now + .seconds(lead + window + 120)
        while lateness.count < count, ContinuousClock.now < giveUp {
            try await Task.sleep(for: .milliseconds(100))
        }
        try await Task.sleep(for: .seconds(1))
        try await observer.publish(sentinel, string: "end", qos: .atLeastOnce)
        let (received, duplicates) = await counter.value
        print("watchdog: deadline→decision (escalation `at`) \(firing.sorted.millisecondsSummary)")
        running.cancel()
        _ = await running.result
        let unsent = try store.escalationCount().unsent
        await bus.shutdown()
        await observer.shutdown()
        return (lateness.sorted, received, duplicates, unsent)
    }
}
