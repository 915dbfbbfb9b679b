import ArgumentParser
import BenchSupport
import Foundation
import Logging
import SafeWalkCore

/// The end-to-end load benchmark and fault injection (issue 9). Build everything first (the five
/// services are separate executables): `swift build -c release`, then
///   swift run -c release e2e-load-bench run [--walkers 10000] [--window 150]
///   swift run -c release e2e-load-bench sweep --walkers 5000,10000,15000,20000 [--window 90]
///   swift run -c release e2e-load-bench faults [--only kill-watchdog] [--walkers 600]
///   swift run -c release e2e-load-bench faults --quick          (CI: exits 1 on any loss/duplicate)
///   swift run -c release e2e-load-bench faults --quick --cluster (CI: the same on three NATS nodes)
///   swift run -c release e2e-load-bench faults --quick --only cluster-partition (CI, as root)
///   swift run -c release e2e-load-bench cost [--walkers 100]   (instructions per fix, callgrind)
/// Results and the exact commands used: RESULTS.md beside this file. An unknown or misspelt option
/// is an error (exit 64), never a silent default.
@main
struct E2ELoadBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "e2e-load-bench",
        abstract: "Simulated walkers through a real Mosquitto, the five services and the fake SMS gateway.",
        subcommands: [Run.self, Sweep.self, Faults.Command.self, Cost.self, Subscribe.self],
        defaultSubcommand: Run.self)
}

/// Thresholds and load shape shared by `run` and `sweep`.
struct LoadOptions: ParsableArguments {
    @Option(name: .customLong("checkin"), help: "SAFEWALK_CHECKIN_INTERVAL (s).") var checkIn: Double = 30
    /// 50 s: since issue 15 silence is counted from the last answer, so a walker must be prompted
    /// (every 30 s) before it runs out; 50 s keeps the old 30 + 20 s from last answer to escalation.
    @Option(help: "SAFEWALK_NO_REPLY_AFTER (s), counted from the last answer; above --checkin.")
    var noReply: Double = 50
    @Option(help: "SAFEWALK_NO_MOVEMENT_AFTER (s).") var noMovement: Double = 90
    @Option(help: "Walkers who go silent (default: a tenth).") var silent: Int?
    @Option(help: "MQTT connections the simulated phones share.") var connections = 20
    @Option(help: "Seconds after the window for due deliveries to arrive.") var drain: Double = 60
    @Option(
        name: .customLong("fix-qos"),
        help: "QoS of the phones' fixes: 1 (the contract's), or 0 to measure what QoS 1 costs the broker.")
    var fixQoS = 1
    /// A walker's pace; slower than a phone's 5 s lets more walkers (their sessions, watches and
    /// check-ins) fit a box than their fixes would (docs/SCALING.md, "The 1/100 run").
    @Option(name: .customLong("fix-interval"), help: "Seconds between one walker's fixes.") var fixInterval: Double = 5

    func validate() throws {
        guard fixQoS == 0 || fixQoS == 1 else { throw ValidationError("--fix-qos is 0 or 1") }
        guard fixInterval >= 1 else { throw ValidationError("--fix-interval is at least 1 s") }
    }

    func plan(walkers: Int, window: Double) -> LoadPlan {
        let thresholds = Thresholds(checkIn: checkIn, noReply: noReply, noMovement: noMovement)
        let latest = max(thresholds.checkIn, thresholds.noReply)
        var plan = LoadPlan(
            walkers: walkers, silent: silent ?? walkers / 10, connections: connections,
            ramp: thresholds.checkIn, window: window, silenceStart: 10,
            silenceSpan: max(1, window - latest - 20), drain: drain, thresholds: thresholds)
        plan.fixQoS = fixQoS == 0 ? .atMostOnce : .atLeastOnce
        plan.fixInterval = fixInterval
        return plan
    }
}

extension E2ELoadBench {
    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "One load run, beside a raw QoS 1 baseline.")

        @Option(help: "Simulated walkers.") var walkers = 10_000
        @Option(help: "Measured window (s).") var window: Double = 150
        @Option(help: "Seconds of the plain-subscriber baseline.") var baseline: Double = 20
        @Option(help: "Messages in the raw burst baseline.") var burst = 100_000
        @OptionGroup var load: LoadOptions

        func run() async throws {
            Cleanup.install()
            let raw = try await LoadRun.execute(
                plan: load.plan(walkers: walkers, window: window), baseline: (baseline, burst))
            let e = Evaluation(raw)
            Report.main(raw, e)
            print(
                e.clean ? "none missed, none duplicated, no fix lost" : "FAILED: missed, duplicated or lost (see above)"
            )
            if !e.clean { throw ExitCode.failure }
        }
    }

    struct Sweep: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "One run per walker count, to find the knee.")

        @Option(help: "Walker counts, comma-separated.", transform: Sweep.counts)
        var walkers: [Int] = [5_000, 10_000, 15_000, 20_000]
        @Option(help: "Measured window (s).") var window: Double = 90
        @Option(help: "Seconds of the plain-subscriber baseline.") var baseline: Double = 15
        @Option(help: "Messages in the raw burst baseline.") var burst = 50_000
        @Flag(
            help:
                "On three NATS nodes (docs/SCALING.md) instead of one Mosquitto; no raw baseline, which reads Mosquitto's $SYS counters."
        )
        var cluster = false
        @Option(help: "With --cluster: partitions of the walkers (watchdogs, companions, ingests, notifiers each).")
        var partitions = 1
        @OptionGroup var load: LoadOptions

        func validate() throws {
            guard (1...WalkerPartition.maxCount).contains(partitions) else {
                throw ValidationError("--partitions is 1 to \(WalkerPartition.maxCount)")
            }
            guard partitions == 1 || cluster else { throw ValidationError("--partitions needs --cluster") }
        }

        static func counts(_ text: String) throws -> [Int] {
            try text.split(separator: ",").map { word in
                guard let count = Int(word), count > 0 else { throw ValidationError("not a walker count: '\(word)'") }
                return count
            }
        }

        func run() async throws {
            Cleanup.install()
            var lines: [String] = []
            for walkers in walkers {
                let plan = load.plan(walkers: walkers, window: window)
                let raw = try await LoadRun.execute(
                    plan: cluster ? plan.forNATS : plan, baseline: cluster ? nil : (baseline, burst), onNATS: cluster,
                    partitions: partitions)
                let e = Evaluation(raw)
                Report.main(raw, e)
                lines.append(Self.row(walkers: walkers, raw, e))
                print(
                    "| walkers | fixes/s offered | fixes/s stored | alert latency p50 / p99 / max | missed / dup | false alarms | CPU % of one core: phones / services / broker | broker msgs per fix (in + out) | CPU µs per fix: services / broker (× broker) | top CPU (of one core) | verdict |"
                )
                print("|---|---|---|---|---|---|---|---|---|---|---|")
                lines.forEach { print($0) }
            }
        }

        static func row(walkers: Int, _ raw: LoadRun.Raw, _ e: Evaluation) -> String {
            let s = SortedSamples(e.toAlert)
            let window = raw.windowEnd.at - raw.windowStart.at
            let busiest = raw.processes.map { p -> (String, Double) in
                let key = p.name.hasPrefix("e2e-load-bench") ? "bench" : p.name
                return (p.name, 100 * ((raw.windowEnd.cpu[key] ?? 0) - (raw.windowStart.cpu[key] ?? 0)) / window)
            }.sorted { $0.1 > $1.1 }.prefix(3).map { "\($0.0) " + f("%.0f%%", $0.1) }.joined(separator: ", ")
            let share = StackShare(raw)
            return String(
                format: "| %d | %.0f | %.0f | %.0f / %.0f / %.0f ms | %d / %d | %d | ", walkers,
                e.offeredPerSecond, e.ingestedPerSecond, s.percentile(50) * 1000,
                s.percentile(99) * 1000, s.max * 1000, e.missed, e.duplicated, e.falseAlarms)
                + String(
                    format: "%.0f / %.0f / %.0f | %.2f | %.1f / %.1f (%.1f×) | ", share.phonesPercent,
                    share.servicesPercent, share.brokerPercent, share.brokerMessagesPerFix,
                    share.servicesMicrosecondsPerFix, share.brokerMicrosecondsPerFix,
                    share.servicesMicrosecondsPerFix / max(share.brokerMicrosecondsPerFix, 1e-9))
                + "\(busiest) | \(verdict(e, s)) |"
        }

        /// Whether this load is carried as the capacity issue defines the knee: nothing missed,
        /// duplicated or lost, no false alarm, p99 deadline → alert below 250 ms.
        static func verdict(_ e: Evaluation, _ alertLatency: SortedSamples) -> String {
            var problems: [String] = []
            if !e.clean { problems.append("loss/dup") }
            if e.falseAlarms > 0 { problems.append("\(e.falseAlarms) false alarms") }
            if !(alertLatency.percentile(99) < 0.25) { problems.append("p99 ≥ 250 ms") }
            return problems.isEmpty ? "carried" : problems.joined(separator: ", ")
        }
    }
}

extension Faults {
    /// `e2e-load-bench faults`: each fault case in a fresh stack.
    struct Command: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "faults", abstract: "Fault injection: every due escalation delivered exactly once?")

        @Flag(help: "The CI set in one short run (broker restart, SIGKILL watchdog, SIGKILL notifier).") var quick =
            false
        @Flag(help: "With --quick: the CI set on three NATS nodes (SIGKILL of a node, the watchdog, the notifier).")
        var cluster = false
        @Option(help: "Only these cases, comma-separated (\(Faults.names.joined(separator: ", "))).") var only: String?
        @Option(help: "Measured window (s; default 45 with --quick, else 90).") var window: Double?
        @Option(help: "Simulated walkers (default 300 with --quick, else 600).") var walkers: Int?
        @Option(help: "Walkers who go silent (default: a third).") var silent: Int?
        @Option(help: "MQTT connections the simulated phones share.") var connections = 4
        @Option(help: "Seconds after the window for due deliveries to arrive.") var drain: Double = 120

        func validate() throws {
            if cluster, !quick { throw ValidationError("--cluster goes with --quick (or use --only nats-node-kill)") }
            let unknown = selected.names.subtracting(Faults.names)
            if !unknown.isEmpty {
                throw ValidationError("unknown fault case(s): \(unknown.sorted().joined(separator: ", "))")
            }
        }

        private var selected: (names: Set<String>, cases: [Faults.Case]) {
            guard let only else {
                return ([], quick ? [cluster ? Faults.clusterQuick : Faults.quick] : Faults.all(window: 90))
            }
            let names = Set(only.split(separator: ",").map(String.init))
            return (
                names,
                Faults.all(window: 90).filter { names.contains($0.name) }
                    + Faults.shortCases.filter { names.contains($0.name) }
            )
        }

        var plan: LoadPlan {
            let thresholds =
                quick
                ? Thresholds(checkIn: 5, noReply: 10, noMovement: 60)
                : Thresholds(checkIn: 10, noReply: 15, noMovement: 60)
            let window = window ?? (quick ? 45 : 90)
            let walkers = walkers ?? (quick ? 300 : 600)
            return LoadPlan(
                walkers: walkers, silent: silent ?? walkers / 3, connections: connections,
                ramp: thresholds.checkIn, window: window, silenceStart: 3,
                silenceSpan: window - thresholds.checkIn - thresholds.noReply - 5, drain: drain,
                thresholds: thresholds)
        }

        func run() async throws {
            Cleanup.install()
            let started = epochNow()
            let rows = try await Faults.run(cases: selected.cases, plan: plan)
            Faults.printTable(rows)
            let clean = rows.allSatisfy(\.evaluation.clean)
            print(
                String(format: "faults: %d case(s) in %.0f s: ", rows.count, epochNow() - started)
                    + (clean ? "every due escalation delivered exactly once, no acknowledged fix lost" : "FAILED"))
            if !clean { throw ExitCode.failure }
        }
    }

    /// Every case name `--only` accepts.
    static var names: Set<String> { Set((all(window: 90) + shortCases).map(\.name)) }

    /// The cases on the `--quick` plan, each also run by name.
    static var shortCases: [Case] { [quick, clusterQuick, clusterPartition, clusterPartitions] }
}

extension E2ELoadBench {
    /// `e2e-load-bench cost`: instructions per fix per service beside the broker's (issue 22).
    struct Cost: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Instructions per fix for each service and the broker, counted under QEMU (issue 22).")

        @Option(help: "Simulated walkers (a fix each every 5 s).") var walkers = 100
        @Option(help: "Walkers who go silent and escalate.") var silent = 5
        @Option(help: "Seconds of walking after the ramp.") var window: Double = 60
        @Option(help: "Seconds the stack rests between two readings before the mix.") var idle: Double = 10
        @Option(help: "SAFEWALK_CHECKIN_INTERVAL (s); also the ramp over which walkers start.")
        var checkIn: Double = 20
        @Option(help: "SAFEWALK_NO_REPLY_AFTER (s), counted from the last answer; above --check-in.")
        var noReply: Double = 30
        @Option(help: "MQTT connections the simulated phones share.") var connections = 4
        @Flag(
            help: """
                Also count two bare subscribers of the watchdog's inputs (mosquitto_sub and SafeWalkMQTT's \
                client), the floor under a service's cost; the broker then also delivers to them.
                """)
        var floor = false

        var plan: LoadPlan {
            let thresholds = Thresholds(checkIn: checkIn, noReply: noReply, noMovement: 3_600)
            return LoadPlan(
                walkers: walkers, silent: silent, connections: connections, ramp: checkIn, window: window,
                silenceStart: 5, silenceSpan: max(1, window - noReply - checkIn - 5), drain: 300,
                thresholds: thresholds)
        }

        func run() async throws {
            Cleanup.install()
            var logger = Logger(label: "e2e-load")
            logger.logLevel = .error
            let result = try await CostRun.execute(plan: plan, idle: idle, floor: floor, logger: logger)
            print(result.report)
        }
    }
}
