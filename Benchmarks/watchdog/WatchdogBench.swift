import ArgumentParser

/// `swift run -c release watchdog-bench inprocess --watches 1000000 --events 2000000`
/// `swift run -c release watchdog-bench broker --walkers 100000 --window 10 --lead 8`
/// `swift run -c release watchdog-bench pin`
/// Results and the commands used: RESULTS.md beside this file. An unknown or misspelt option is
/// an error (exit 64), never a silent default.
@main
struct WatchdogBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watchdog-bench",
        abstract: "The watchdog in process (1,000,000 watches) and through a real Mosquitto.",
        subcommands: [InProcess.self, Broker.self, PINCheck.self],
        defaultSubcommand: InProcess.self)

    struct InProcess: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "inprocess",
            abstract: "Memory per watch, events/s beside the bare machine, restore time beside a raw row scan.")

        @Option(help: "Active watches.") var watches = 1_000_000
        @Option(help: "Events sent to random walkers.") var events = 2_000_000

        func run() async throws {
            try await InProcessBench.run(watches: watches, events: events)
        }
    }

    struct PINCheck: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pin",
            abstract: "What checking a cancel or duress PIN costs the event loop, beside the step it guards.")

        @Option(help: "Samples of each kind per round (5 interleaved rounds).") var samples = 200

        func run() throws {
            PINBench.run(samples: samples)
        }
    }

    struct Broker: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Deadline → PUBACK lateness of escalations beside an ideal scheduler, through Mosquitto.")

        @Option(help: "Walkers whose deadlines all fall inside the window.") var walkers = 100_000
        @Option(help: "Seconds over which the deadlines are spread.") var window: Double = 10
        @Option(help: "Seconds between setting up the walks and the first deadline.") var lead: Double = 8

        func run() async throws {
            let ok = try await BrokerBench.run(walkers: walkers, window: window, lead: lead)
            print(ok ? "none missed, none duplicated" : "FAILED: missed, duplicated or unsent escalations (see above)")
            if !ok { throw ExitCode.failure }
        }
    }
}
