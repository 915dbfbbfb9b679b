import Foundation

// `swift run -c release watchdog-bench inprocess --watches 1000000 --events 2000000`
// `swift run -c release watchdog-bench broker --walkers 100000 --window 10 --lead 8`
// Results and the commands used: RESULTS.md beside this file.

let arguments = Arguments(Array(CommandLine.arguments.dropFirst()))
let mode = CommandLine.arguments.dropFirst().first ?? "inprocess"

do {
    switch mode {
    case "inprocess":
        try await InProcessBench.run(watches: arguments.int("watches", 1_000_000), events: arguments.int("events", 2_000_000))
        exit(0)
    case "broker":
        let ok = try await BrokerBench.run(walkers: arguments.int("walkers", 100_000), window: arguments.double("window", 10),
                                           lead: arguments.double("lead", 8))
        print(ok ? "none missed, none duplicated" : "FAILED: missed, duplicated or unsent escalations (see above)")
        exit(ok ? 0 : 1)
    default:
        print("usage: watchdog-bench inprocess [--watches N] [--events N] | broker [--walkers N] [--window S] [--lead S]")
        exit(2)
    }
} catch {
    print("benchmark failed: \(error)")
    exit(1)
}
