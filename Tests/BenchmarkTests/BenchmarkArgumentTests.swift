import ArgumentParser
import Testing

@testable import e2e_load_bench
@testable import location_ingest_bench
@testable import watchdog_bench
@testable import web_bench

/// The benchmarks' command lines: every documented command parses, and a misspelt option is an
/// error instead of a silent default (a typo once meant a run at the default size).
@Suite struct BenchmarkArgumentTests {
    func parses<C: ParsableCommand>(_ command: C.Type, _ words: [String]) -> Bool {
        (try? command.parseAsRoot(words)) != nil
    }

    @Test(arguments: [
        ["inprocess", "--watches", "1000000", "--events", "2000000"],
        ["broker", "--walkers", "100000", "--window", "10", "--lead", "8"],
        [],
    ])
    func watchdogBenchAcceptsItsDocumentedCommands(_ words: [String]) {
        #expect(parses(WatchdogBench.self, words))
    }

    @Test(arguments: [
        ["inprocess", "--watchs", "1000000"],
        ["broker", "--walkers", "100000", "--windw", "10"],
        ["brokr"],
        ["inprocess", "--events", "many"],
    ])
    func watchdogBenchRejectsMisspeltOptions(_ words: [String]) {
        #expect(!parses(WatchdogBench.self, words))
    }

    @Test func webBenchTakesItsDocumentedOptionsAndRefusesMisspeltOnes() throws {
        let bench = try #require(try WebBench.parseAsRoot(["--count", "10", "--blocks", "3"]) as? WebBench)
        #expect(bench.count == 10 && bench.blocks == 3 && bench.rounds == 210_000)
        #expect(!parses(WebBench.self, ["--cuont", "10"]))
        #expect(!parses(WebBench.self, ["--rounds", "0"]), "validate() refuses non-positive sizes")
    }

    @Test func locationIngestBenchTakesFlagsNotEnvironmentVariables() throws {
        let bench = try #require(
            try LocationIngestBench.parseAsRoot(["--rounds", "5", "--walkers", "10"]) as? LocationIngestBench)
        #expect(bench.rounds == 5 && bench.walkers == 10 && bench.fixesPerWalker == 200 && bench.publishers == 4)
        #expect(!parses(LocationIngestBench.self, ["--round", "5"]))
    }

    @Test(arguments: [
        ["run", "--walkers", "10000", "--window", "150"],
        ["sweep", "--walkers", "15000,20000,25000,30000", "--window", "90", "--silent", "250"],
        ["faults"], ["faults", "--quick"], ["faults", "--only", "kill-watchdog,sms-500", "--walkers", "600"],
        ["faults", "--quick", "--cluster"], ["faults", "--only", "nats-node-kill"],
    ])
    func e2eLoadBenchAcceptsItsDocumentedCommands(_ words: [String]) {
        #expect(parses(E2ELoadBench.self, words))
    }

    @Test(arguments: [
        ["run", "--walker", "10000"], ["faults", "--quik"], ["faults", "--only", "kill-wachdog"],
        ["sweep", "--walkers", "15000,x"], ["faults", "--cluster"],
    ])
    func e2eLoadBenchRejectsMisspeltOptionsAndCaseNames(_ words: [String]) {
        #expect(!parses(E2ELoadBench.self, words))
    }
}
