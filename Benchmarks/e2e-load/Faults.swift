import BenchSupport
import Foundation
import SafeWalkCore
import TestSupport

/// Fault injection under load: each fault in its own run (or, for `--quick`, the CI set in one
/// run), then the same exactly-once checks as the load benchmark.
enum Faults {
    struct Case: Sendable {
        var name: String
        var tmpfsFor: ServiceName? = nil
        /// On three NATS nodes instead of one Mosquitto (docs/SCALING.md).
        var onNATS = false
        /// Each NATS node in a network namespace of its own, for ``partition(_:at:seconds:)``.
        var isolatedNodes = false
        /// How many partitions share the walkers: watchdogs and companions each (NATS only).
        var partitions = 1
        /// Instances started with a standby on the same data directory (``failOver(_:at:)``).
        var standbys: [Instance] = []
        var steps: [FaultStep]
    }

    /// SIGKILL of the NATS node the watchdog and the notifier are at home on (and a third of
    /// the phones' connections): they must move to another node and lose nothing.
    static func nodeKill(at offset: Double, down: Double) -> FaultStep {
        FaultStep(
            offset: offset, name: "SIGKILL NATS node 0 (watchdog's and notifier's), back after \(Int(down)) s"
        ) { cluster in
            try await cluster.killNode(0, down: down)
        }
    }

    /// A network partition of NATS node `node` (every packet in and out dropped, silently) for
    /// `seconds`: the clients connected to it learn only from their keep-alive (services 30 s,
    /// phones 20 s), then move to another node; the other two keep the JetStream quorum.
    static func partition(_ node: Int, at offset: Double, seconds: Double) -> FaultStep {
        FaultStep(offset: offset, name: "network partition of NATS node \(node) for \(Int(seconds)) s") { cluster in
            try await cluster.partitionNode(node, seconds: seconds)
        }
    }

    static func restart(_ service: ServiceName, at offset: Double) -> FaultStep {
        FaultStep(offset: offset, name: "SIGKILL \(service), restart after 2 s") { cluster in
            await cluster.kill(Instance(service))
            try await Task.sleep(for: .seconds(2))
            try await cluster.start(Instance(service))
        }
    }

    /// SIGKILL of `instance` with its standby waiting: nobody restarts it; the standby takes the
    /// instance lock, the SQLite file and the broker session over (docs/SCALING.md).
    static func failOver(_ instance: Instance, at offset: Double) -> FaultStep {
        FaultStep(offset: offset, name: "SIGKILL \(instance); its standby takes over") { cluster in
            let took = try await cluster.killAndFailOver(instance)
            say(String(format: "%@'s standby ready %.2f s after the SIGKILL", instance.description, took))
        }
    }

    static func brokerRestart(_ offset: Double) -> FaultStep {
        FaultStep(offset: offset, name: "broker stopped (SIGTERM, persistence saved), restarted after 2 s") { cluster in
            try await cluster.restartBroker(pause: 2)
        }
    }

    static func freeze(_ service: ServiceName, at offset: Double, seconds: Double) -> FaultStep {
        FaultStep(offset: offset, name: "SIGSTOP \(service) for \(Int(seconds)) s, then SIGCONT") { cluster in
            await cluster.signal(Instance(service), SIGSTOP)
            try await Task.sleep(for: .seconds(seconds))
            await cluster.signal(Instance(service), SIGCONT)
        }
    }

    static func smsOutage(at offset: Double, seconds: Double) -> FaultStep {
        FaultStep(offset: offset, name: "SMS gateway answers 500 for \(Int(seconds)) s") { cluster in
            try await cluster.gateway.control(failFor: seconds, status: 500)
        }
    }

    /// Fills the service's tmpfs data directory (64 MiB) for `seconds`, then frees it.
    static func diskFull(_ service: ServiceName, at offset: Double, seconds: Double) -> FaultStep {
        FaultStep(offset: offset, name: "\(service)'s data disk full for \(Int(seconds)) s") { cluster in
            let directory = cluster.databaseDirectory(service)
            let filler = directory.appendingPathComponent("filler")
            var fs = statvfs()
            statvfs(directory.path, &fs)
            let free = Int(fs.f_bavail) * Int(fs.f_frsize)
            _ = FileManager.default.createFile(atPath: filler.path, contents: Data(count: free))
            statvfs(directory.path, &fs)
            say("disk full: \(free) bytes taken, \(Int(fs.f_bavail) * Int(fs.f_frsize)) left")
            try await Task.sleep(for: .seconds(seconds))
            try FileManager.default.removeItem(at: filler)
            say("disk space freed")
        }
    }

    /// Silences start 3 s into the window and escalate 10–25 s later, so escalations fall due from
    /// about 15 s to the end: a momentary fault strikes at 40 s, in the middle of them, and a
    /// lasting one starts at 20 s and covers dozens of deadlines.
    static func all(window: Double) -> [Case] {
        let at = 20.0
        let instant = 40.0
        return [
            Case(name: "broker-restart", steps: [brokerRestart(instant)]),
            Case(name: "kill-watchdog", steps: [restart(.watchdog, at: instant)]),
            Case(name: "kill-notifier", steps: [restart(.notifier, at: instant)]),
            Case(name: "kill-ingest", steps: [restart(.locationIngest, at: instant)]),
            Case(
                name: "standby-watchdog", standbys: [Instance(.watchdog)],
                steps: [failOver(Instance(.watchdog), at: instant)]
            ),
            Case(
                name: "standby-notifier", standbys: [Instance(.notifier)],
                steps: [failOver(Instance(.notifier), at: instant)]
            ),
            Case(name: "freeze-watchdog", steps: [freeze(.watchdog, at: at, seconds: 30)]),
            Case(name: "freeze-notifier", steps: [freeze(.notifier, at: at, seconds: 30)]),
            Case(name: "sms-500", steps: [smsOutage(at: at, seconds: 60)]),
            Case(
                name: "disk-full-ingest", tmpfsFor: .locationIngest,
                steps: [diskFull(.locationIngest, at: at, seconds: 30)]),
            Case(name: "disk-full-watchdog", tmpfsFor: .watchdog, steps: [diskFull(.watchdog, at: at, seconds: 30)]),
            // With `forNATS` silences fall due from ~43 s to ~103 s: 60 s is in the middle of them.
            Case(name: "nats-node-kill", onNATS: true, steps: [nodeKill(at: 60, down: 10)]),
            Case(
                name: "nats-partition", onNATS: true, isolatedNodes: true, steps: [partition(0, at: 50, seconds: 60)]),
        ]
    }

    /// The CI set in one short run: broker restart, then SIGKILL of the watchdog, then of the notifier.
    static let quick = Case(
        name: "quick", steps: [brokerRestart(8), restart(.watchdog, at: 20), restart(.notifier, at: 30)])

    /// The CI set on three NATS nodes (`--quick --cluster`; with ``LoadPlan/forNATS`` a 30 s reply
    /// window and a 65 s window, so silences fall due from ~38 s on): the SIGKILL of the
    /// watchdog's and notifier's node as they start, then of the watchdog and of the notifier
    /// themselves among them, each replaced by its standby, as a cluster deployment runs them.
    static let clusterQuick = Case(
        name: "cluster-quick", onNATS: true, standbys: [Instance(.watchdog), Instance(.notifier)],
        steps: [
            nodeKill(at: 30, down: 8), failOver(Instance(.watchdog), at: 45), failOver(Instance(.notifier), at: 51),
        ])

    /// Two partitions: two watchdogs, companions, ingests and notifiers, each serving the walkers the
    /// nodes route to its partition (`--quick --only cluster-partitions`, on the CI plan). The phones
    /// answer check-ins only once the companion of their partition has asked. SIGKILL of node 0, the
    /// home of partition 0's four instances, as silences start to fall due, then of watchdog 1
    /// and of notifier 1 themselves, each replaced by its standby. Every due escalation must still
    /// be delivered exactly once, from whichever partition owns its walker, with no false alarm,
    /// and the watchdogs', the ingests' and the notifiers' stores must each hold disjoint walkers,
    /// each its own.
    static let clusterPartitions = Case(
        name: "cluster-partitions", onNATS: true, partitions: 2,
        standbys: [Instance(.watchdog, partition: 1), Instance(.notifier, partition: 1)],
        steps: [
            nodeKill(at: 30, down: 8), failOver(Instance(.watchdog, partition: 1), at: 45),
            failOver(Instance(.notifier, partition: 1), at: 51),
        ])

    /// The partition on the CI plan (`--quick --only cluster-partition`): node 0, where the
    /// watchdog and the notifier are at home, cut off from 25 s to 70 s, while silences fall due.
    static let clusterPartition = Case(
        name: "cluster-partition", onNATS: true, isolatedNodes: true, steps: [partition(0, at: 25, seconds: 45)])

    struct Row: Sendable {
        var name: String
        var evaluation: Evaluation
    }

    static func run(cases: [Case], plan: LoadPlan) async throws -> [Row] {
        var rows: [Row] = []
        for c in cases {
            say("===== fault case \(c.name): \(c.steps.map(\.name).joined(separator: "; "))")
            let raw = try await LoadRun.execute(
                plan: c.onNATS ? plan.forNATS : plan, baseline: nil, tmpfsFor: c.tmpfsFor, onNATS: c.onNATS,
                isolatedNodes: c.isolatedNodes, partitions: c.partitions,
                standbys: c.standbys, faults: c.steps)
            let e = Evaluation(raw)
            Report.main(raw, e)
            rows.append(Row(name: c.name, evaluation: e))
            printTable(rows)
        }
        return rows
    }

    static func printTable(_ rows: [Row]) {
        print("")
        print(
            "| fault | escalations due (silent) | extra escalations (false alarms) | escalations delivered exactly once (alert + each contact's SMS) | duplicated (esc / alert / SMS) | lost (esc / alert / SMS) | fixes acked / stored / lost | alert latency p50 / p99 / max |"
        )
        print("|---|---|---|---|---|---|---|---|")
        for row in rows {
            let e = row.evaluation
            let s = SortedSamples(e.toAlert)
            let lat =
                s.isEmpty
                ? "–"
                : String(format: "%.1f / %.1f / %.1f s", s.percentile(50), s.percentile(99), s.max)
            print(
                "| \(row.name) | \(e.due) | \(e.falseAlarms) | \(e.deliveredExactlyOnce) of \(e.escalationIDs) | \(e.duplicated) / \(e.alertDuplicated) / \(e.smsDuplicated) | \(e.missed) / \(e.alertMissing) / \(e.smsMissing) | \(e.fixesAcked) / \(e.fixesStored) / \(e.fixesLost) | \(lat) |"
            )
        }
        print("")
    }
}
