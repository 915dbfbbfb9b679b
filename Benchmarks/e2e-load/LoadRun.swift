import Foundation
import Logging
import SafeWalkCore
import Synchronization
import TestSupport

/// One fault injected at `offset` seconds into the window.
struct FaultStep: Sendable {
    var offset: Double
    var name: String
    var action: @Sendable (Cluster) async throws -> Void
}

/// Runs one load end to end and collects what `Evaluation` needs.
enum LoadRun {
    struct Snapshot: Sendable {
        var at: Double
        var cpu: [String: Double]
        var stored: Int
        var acked: Int
        var sys: [String: Double]
    }

    struct Raw: Sendable {
        var plan: LoadPlan
        var baseline: BaselineResult?
        var windowStart: Snapshot
        var windowEnd: Snapshot
        var processes: [(name: String, cpuTotal: Double, peakRSS: Int)]
        var observed: Observer.Record
        var sms: FakeSMSGateway.Stats
        var ackedPerWalker: [Int]
        var storedPerWalker: [String: Int]
        var lastFixTst: [Double]
        var publishFailures: Int
        var replies: Int
        var benchCPU: Double
        var faultsAt: [(String, Double)]
        /// Escalation ids whose text the notifier sent again after an interrupted attempt (its log:
        /// "resending after an interrupted attempt", `channel=sms-http`): the documented window
        /// where a text can go twice (docs/services/notifier.md), one per line.
        var smsResentAfterCrash: [String] = []
        /// Fault steps that could not do what they say (a standby that never took over, a node
        /// still reachable once cut off), each with why: such a run tested something else, and
        /// fails.
        var faultsFailed: [String] = []
    }

    /// The escalation id of each of the notifier's "resending after an interrupted attempt" lines
    /// for `channel`. Pure over the log's text.
    static func resentAfterCrash(_ log: String, channel: String) -> [String] {
        log.split(separator: "\n").compactMap { line in
            guard line.contains("resending after an interrupted attempt"), line.contains(" channel=\(channel) ") else {
                return nil
            }
            return line.split(separator: " ").first { $0.hasPrefix("escalation=") }.map {
                String($0.dropFirst("escalation=".count))
            }
        }
    }

    static func execute(
        plan: LoadPlan, baseline: (seconds: Double, burst: Int)?, tmpfsFor: ServiceName? = nil,
        onNATS: Bool = false, isolatedNodes: Bool = false, partitions: Int = 1, standbys: [Instance] = [],
        faults: [FaultStep] = []
    ) async throws -> Raw {
        var logger = Logger(label: "e2e-load")
        logger.logLevel = .error
        let cluster = try await Cluster(
            thresholds: plan.thresholds, tmpfsFor: tmpfsFor, onNATS: onNATS, isolatedNodes: isolatedNodes,
            partitions: partitions)
        let port = cluster.nodes[0].port
        say(
            "broker \(cluster.nodes.map(\.description).joined(separator: ",")), fake SMS gateway :\(cluster.gateway.port), data in \(cluster.root.path)"
        )
        // On NATS the observer watches from node 2, which no case kills (it can still move).
        let (observerNode, observerFailover) = cluster.endpoint(home: 2)
        let observer = try await Observer(node: observerNode, failover: observerFailover, logger: logger)
        let fleet = try await Fleet(plan: plan, endpoint: cluster.endpoint(home:), logger: logger)
        var baselineResult: BaselineResult?
        if let baseline, let brokerPID = await cluster.broker?.pid {
            say(
                "baseline: \(plan.walkers) walkers' fixes for \(baseline.seconds) s to a plain subscriber, then a burst of \(baseline.burst)"
            )
            let result = try await Baseline.run(
                fleet: fleet, port: port, brokerPID: brokerPID, seconds: baseline.seconds,
                burst: baseline.burst, logger: logger)
            say(
                String(
                    format:
                        "baseline: %d published, %d received, %.0f fixes/s, broker CPU %.2f s (%.0f %%); burst %d/%d at %.0f msgs/s",
                    result.published, result.received, result.receivedPerSecond, result.brokerCPU,
                    100 * result.brokerCPU / result.seconds, result.burstReceived, result.burstCount,
                    result.burstPerSecond))
            baselineResult = result
            fleet.resetAcked()
        }

        let started = epochNow()
        try await cluster.startAll()
        for instance in cluster.instances { try await observer.waitOnline(instance, since: started - 1) }
        say(String(format: "five services online in %.1f s", epochNow() - started))
        for instance in standbys { try await cluster.startStandby(instance) }
        if !standbys.isEmpty { say("standing by: \(standbys.map(\.description).joined(separator: ", "))") }
        let contactsStart = epochNow()
        await fleet.addContacts()
        let expectedResults = plan.walkers * plan.contacts
        while observer.snapshot.contactResults < expectedResults, epochNow() < contactsStart + 300 {
            try await Task.sleep(for: .milliseconds(100))
        }
        say(
            String(
                format: "%d contacts added through contacts-store in %.1f s", observer.snapshot.contactResults,
                epochNow() - contactsStart))

        let t0 = epochNow() + 1
        let w0 = t0 + plan.ramp
        let w1 = w0 + plan.window
        // Every ingest's own file: one, or one per partition.
        let ingestDir = cluster.instances.filter { $0.service == .locationIngest }.map { cluster.databaseDirectory($0) }
        let faultsAt = FaultTimes()
        let sampler = Task { () -> (Snapshot, Snapshot) in
            await sleep(untilEpoch: w0)
            let a = await snapshot(cluster, fleet, observer, ingestDir)
            var previous = a
            while epochNow() + 10 < w1 {
                try? await Task.sleep(for: .seconds(10))
                let s = await snapshot(cluster, fleet, observer, ingestDir)
                say(timeline(previous, s, observer: observer, since: w0))
                previous = s
            }
            await sleep(untilEpoch: w1)
            let b = await snapshot(cluster, fleet, observer, ingestDir)
            say(timeline(previous, b, observer: observer, since: w0))
            return (a, b)
        }
        let injector = Task {
            for step in faults {
                await sleep(untilEpoch: w0 + step.offset)
                say("FAULT \(step.name)")
                faultsAt.add(step.name, epochNow())
                do {
                    try await step.action(cluster)
                } catch {
                    say("fault \(step.name) failed: \(error)")
                    faultsAt.failed("\(step.name): \(error)")
                }
            }
        }
        say(
            String(
                format: "load: %d walkers on %d connections, ramp %.0f s, window %.0f s, %d go silent; ",
                plan.walkers, plan.connections, plan.ramp, plan.window, plan.silent) + plan.thresholds.description)
        await fleet.run(start: t0, windowStart: w0, end: w1)
        let (a, b) = await sampler.value
        await injector.value
        await fleet.stopActive()
        say("window over; active walkers stopped; waiting for due deliveries")
        let drainEnd = epochNow() + plan.drain
        while epochNow() < drainEnd {
            if try await allDelivered(plan, observer, cluster.gateway) { break }
            try await Task.sleep(for: .milliseconds(500))
        }
        try await Task.sleep(for: .seconds(3))  // late duplicates would still be counted

        var processes: [(String, Double, Int)] = []
        for (name, pid) in await cluster.pids() {
            if let s = ProcSample.read(pid) { processes.append((name, s.cpuSeconds, s.peakRSS)) }
        }
        let bench = ProcSample.this()
        processes.append(("e2e-load-bench (phones + observer)", bench?.cpuSeconds ?? 0, bench?.peakRSS ?? 0))
        let sms = try await cluster.gateway.stats()
        await cluster.stopServices()
        var notifierLogs = ""
        for notifier in cluster.instances where notifier.service == .notifier {
            notifierLogs += await cluster.logs(notifier)
        }
        let smsResent = resentAfterCrash(notifierLogs, channel: "sms-http")
        for service in cluster.instances {
            // What a service said about a fault: its loud lines (critical and error), first of each.
            let lines = await cluster.logs(service).split(separator: "\n")
            let loud = lines.filter { line in
                let level = line.split(separator: " ", maxSplits: 2).dropFirst().first
                return level == "critical" || level == "error"
            }
            if let first = loud.first {
                say("\(service): \(loud.count) critical/error log lines; first: \(first.prefix(300))")
            }
            if let last = loud.last, loud.count > 1 { say("\(service): last: \(last.prefix(300))") }
        }
        let stored = IngestDatabase.perWalker(ingestDir)
        if cluster.partitions > 1 {
            let stores: [(ServiceName, PartitionStores.Store)] = [
                (.watchdog, .watches), (.locationIngest, .fixes), (.notifier, .escalations),
            ]
            for (service, store) in stores {
                let partitions = cluster.instances.filter { $0.service == service && $0.partition != nil }
                let stores = PartitionStores.walkers(in: partitions.map { cluster.databaseDirectory($0) }, store)
                let sizes = stores.map { $0.map { "\(Set($0).count)" } ?? "unreadable" }.joined(separator: " / ")
                say("\(service): walkers per partition: \(sizes)")
                for problem in PartitionStores.problems(stores) { faultsAt.failed("\(service) partitions: \(problem)") }
            }
        }
        let raw = Raw(
            plan: plan, baseline: baselineResult, windowStart: a, windowEnd: b,
            processes: processes.map { (name: $0.0, cpuTotal: $0.1, peakRSS: $0.2) },
            observed: observer.snapshot, sms: sms, ackedPerWalker: fleet.ackedPerWalker,
            storedPerWalker: stored, lastFixTst: (0..<plan.walkers).map { fleet.lastFixTst($0) },
            publishFailures: fleet.failures, replies: fleet.replies.load(ordering: .relaxed),
            benchCPU: (b.cpu["bench"] ?? 0) - (a.cpu["bench"] ?? 0), faultsAt: faultsAt.all,
            smsResentAfterCrash: smsResent, faultsFailed: faultsAt.failures)
        await fleet.shutdown()
        await observer.shutdown()
        let keep = ProcessInfo.processInfo.environment["E2E_KEEP"] != nil
        if keep { say("kept \(cluster.root.deletingLastPathComponent().path)") }
        await cluster.shutdown(keep: keep)
        return raw
    }

    static func snapshot(_ cluster: Cluster, _ fleet: Fleet, _ observer: Observer, _ ingestDir: [URL]) async -> Snapshot
    {
        var cpu: [String: Double] = [:]
        for (name, pid) in await cluster.pids() { cpu[name] = ProcSample.read(pid)?.cpuSeconds }
        cpu["bench"] = ProcSample.this()?.cpuSeconds
        return Snapshot(
            at: epochNow(), cpu: cpu, stored: IngestDatabase.count(ingestDir), acked: fleet.ackedTotal,
            sys: observer.snapshot.sys)
    }

    static func timeline(_ a: Snapshot, _ b: Snapshot, observer: Observer, since w0: Double) -> String {
        let dt = b.at - a.at
        let cpu = b.cpu.keys.sorted().map { name in
            "\(name.prefix(9)) " + f("%.0f%%", 100 * ((b.cpu[name] ?? 0) - (a.cpu[name] ?? 0)) / dt)
        }.joined(separator: ", ")
        let r = observer.snapshot
        return String(
            format: "t+%3.0f s: fixes acked %.0f/s, stored %.0f/s; escalations %d; broker stored msgs %.0f; CPU ",
            b.at - w0, Double(b.acked - a.acked) / dt, Double(b.stored - a.stored) / dt,
            r.escalations.values.reduce(0) { $0 + $1.count }, r.sys["$SYS/broker/store/messages/count"] ?? -1) + cpu
    }

    /// Every silent walker escalated, alerted, and every contact of every escalated walker texted.
    static func allDelivered(_ plan: LoadPlan, _ observer: Observer, _ gateway: FakeSMSGateway) async throws -> Bool {
        let r = observer.snapshot
        for n in 0..<plan.walkers where plan.silenceOffset(of: n) != nil {
            guard r.escalations[n] != nil, r.alerts[n] != nil else { return false }
        }
        let stats = try await gateway.stats()
        for n in r.escalations.keys {
            for k in 0..<plan.contacts
            where stats.accepted[LoadPlan.phone(walker: n, contact: k, contacts: plan.contacts).normalised] == nil {
                return false
            }
        }
        return true
    }
}

final class FaultTimes: Sendable {
    private let values = Synchronization.Mutex<[(String, Double)]>([])
    private let failedSteps = Synchronization.Mutex<[String]>([])
    func add(_ name: String, _ at: Double) { values.withLock { $0.append((name, at)) } }
    func failed(_ why: String) { failedSteps.withLock { $0.append(why) } }
    var all: [(String, Double)] { values.withLock { $0 } }
    var failures: [String] { failedSteps.withLock { $0 } }
}

extension LoadRun.Raw {
    /// How much the broker's `$SYS` counter `topic` rose over the window; nil unless both
    /// readings arrived (NATS has no such counters).
    func sysIncrease(_ topic: String) -> Double? {
        guard let start = windowStart.sys[topic], let end = windowEnd.sys[topic] else { return nil }
        return end - start
    }

    /// Fixes stored in the window, at least 1 (it divides).
    var fixesStoredInWindow: Double { Double(max(windowEnd.stored - windowStart.stored, 1)) }
}
