import Foundation

// The end-to-end load benchmark and fault injection (issue 9). Build everything first (the five
// services are separate executables): `swift build -c release`, then
//   swift run -c release e2e-load-bench run [--walkers 10000] [--window 150]
//   swift run -c release e2e-load-bench sweep --walkers 5000,10000,15000,20000 [--window 90]
//   swift run -c release e2e-load-bench faults [--only kill-watchdog] [--walkers 600]
//   swift run -c release e2e-load-bench faults --quick          (CI: exits 1 on any loss/duplicate)
// Results and the exact commands used: RESULTS.md beside this file.

Cleanup.install()
let arguments = Arguments(Array(CommandLine.arguments.dropFirst()))
let mode = arguments.positional.first ?? "run"

@MainActor func loadPlan(walkers: Int, window: Double) -> LoadPlan {
    let thresholds = Thresholds(checkIn: arguments.double("checkin", 30), noReply: arguments.double("no-reply", 20),
                                noMovement: arguments.double("no-movement", 90))
    let latest = thresholds.checkIn + thresholds.noReply
    return LoadPlan(walkers: walkers, silent: arguments.int("silent", walkers / 10),
                    connections: arguments.int("connections", 20), ramp: thresholds.checkIn, window: window,
                    silenceStart: 10, silenceSpan: max(1, window - latest - 20), drain: arguments.double("drain", 60),
                    thresholds: thresholds)
}

@MainActor func faultPlan(quick: Bool) -> LoadPlan {
    let thresholds = quick ? Thresholds(checkIn: 5, noReply: 10, noMovement: 60)
                           : Thresholds(checkIn: 10, noReply: 15, noMovement: 60)
    let window = arguments.double("window", quick ? 45 : 90)
    let walkers = arguments.int("walkers", quick ? 300 : 600)
    return LoadPlan(walkers: walkers, silent: arguments.int("silent", walkers / 3), connections: arguments.int("connections", 4),
                    ramp: thresholds.checkIn, window: window, silenceStart: 3,
                    silenceSpan: window - thresholds.checkIn - thresholds.noReply - 5, drain: arguments.double("drain", 120),
                    thresholds: thresholds)
}

/// Whether this load is carried: nothing missed, duplicated or lost, no false alarm, p99 < 1 s.
func verdict(_ e: Evaluation, _ sortedAlertLatency: [Double]) -> String {
    var problems: [String] = []
    if !e.clean { problems.append("loss/dup") }
    if e.falseAlarms > 0 { problems.append("\(e.falseAlarms) false alarms") }
    if !(Stats.percentile(sortedAlertLatency, 99) < 1) { problems.append("p99 ≥ 1 s") }
    return problems.isEmpty ? "carried" : problems.joined(separator: ", ")
}

do {
    switch mode {
    case "run":
        let plan = loadPlan(walkers: arguments.int("walkers", 10_000), window: arguments.double("window", 150))
        let raw = try await LoadRun.execute(plan: plan, baseline: (arguments.double("baseline", 20), arguments.int("burst", 100_000)))
        let e = Evaluation(raw)
        Report.main(raw, e)
        print(e.clean ? "none missed, none duplicated, no fix lost" : "FAILED: missed, duplicated or lost (see above)")
        exit(e.clean ? 0 : 1)
    case "sweep":
        var lines: [String] = []
        for walkers in arguments.ints("walkers") ?? [5_000, 10_000, 15_000, 20_000] {
            let plan = loadPlan(walkers: walkers, window: arguments.double("window", 90))
            let raw = try await LoadRun.execute(plan: plan, baseline: (arguments.double("baseline", 15), arguments.int("burst", 50_000)))
            let e = Evaluation(raw)
            Report.main(raw, e)
            let s = e.toAlert.sorted()
            let window = raw.windowEnd.at - raw.windowStart.at
            let busiest = raw.processes.map { p -> (String, Double) in
                let key = p.name.hasPrefix("e2e-load-bench") ? "bench" : p.name
                return (p.name, 100 * ((raw.windowEnd.cpu[key] ?? 0) - (raw.windowStart.cpu[key] ?? 0)) / window)
            }.sorted { $0.1 > $1.1 }.prefix(3).map { "\($0.0) " + f("%.0f%%", $0.1) }.joined(separator: ", ")
            lines.append(String(format: "| %d | %.0f | %.0f | %.0f / %.0f / %.0f ms | %d / %d | %d | ", walkers,
                                e.offeredPerSecond, e.ingestedPerSecond, Stats.percentile(s, 50) * 1000,
                                Stats.percentile(s, 99) * 1000, (s.last ?? .nan) * 1000, e.missed, e.duplicated, e.falseAlarms)
                         + "\(busiest) | \(verdict(e, s)) |")
            print("| walkers | fixes/s offered | fixes/s stored | alert latency p50 / p99 / max | missed / dup | false alarms | top CPU (of one core) | verdict |")
            print("|---|---|---|---|---|---|---|---|")
            lines.forEach { print($0) }
        }
        exit(0)
    case "faults":
        let quick = arguments.flag("quick")
        var cases = quick ? [Faults.quick] : Faults.all(window: 90)
        if let only = arguments.values["only"] {
            let names = Set(only.split(separator: ",").map(String.init))
            cases = Faults.all(window: 90).filter { names.contains($0.name) } + (names.contains("quick") ? [Faults.quick] : [])
        }
        let started = epochNow()
        let rows = try await Faults.run(cases: cases, plan: faultPlan(quick: quick))
        Faults.printTable(rows)
        let clean = rows.allSatisfy(\.evaluation.clean)
        print(String(format: "faults: %d case(s) in %.0f s: ", rows.count, epochNow() - started)
              + (clean ? "every due escalation delivered exactly once, no acknowledged fix lost" : "FAILED"))
        exit(clean ? 0 : 1)
    default:
        print("usage: e2e-load-bench run|sweep|faults [--walkers N[,N...]] [--window S] [--quick] [--only NAME]")
        exit(2)
    }
} catch {
    print("benchmark failed: \(error)")
    exit(1)
}
