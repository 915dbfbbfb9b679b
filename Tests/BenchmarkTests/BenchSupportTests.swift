import BenchSupport
import Foundation
import Testing

/// The percentile every benchmark reports, and the `/proc` lines they read CPU time and memory from.
@Suite struct BenchSupportTests {
    @Test func percentilesAreNearestRankSamplesNeverInterpolated() {
        let hundred = SortedSamples((1...100).map(Double.init).shuffled())
        #expect(hundred.percentile(50) == 50)
        #expect(hundred.percentile(99) == 99)
        #expect(hundred.percentile(100) == 100)
        #expect(hundred.percentile(0) == 1)
        #expect(hundred.max == 100 && hundred.count == 100)
        // With an even count the median is the lower middle sample, not the mean of the two.
        #expect(SortedSamples([4, 1, 3, 2]).percentile(50) == 2)
        // p99 of fewer than 100 samples is the largest one: ⌈0.99 · 10⌉ = 10th of 10.
        #expect(SortedSamples((1...10).map(Double.init)).percentile(99) == 10)
        #expect(SortedSamples([7]).percentile(1) == 7)
    }

    @Test func noSamplesReadAsNaNNotZero() {
        let none = SortedSamples([])
        #expect(none.isEmpty && none.percentile(50).isNaN && none.max.isNaN)
    }

    @Test func summaryIsInMilliseconds() {
        #expect(SortedSamples([0.002, 0.001, 0.003]).millisecondsSummary == "p50 2.0 ms, p99 3.0 ms, max 3.0 ms (n=3)")
    }

    @Test func statLineGivesTheNameAndUserPlusSystemTicks() throws {
        // A thread name may hold spaces and parentheses: it ends at the last ")".
        let line =
            "4242 (tokio (x) 1) S 1 4242 4242 0 -1 4194560 2000 0 3 0 150 25 0 0 20 0 9 0 100 1000000 500 "
            + "18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n"
        let stat = try #require(ProcStat(parsing: line))
        #expect(stat.command == "tokio (x) 1")
        #expect(stat.cpuTicks == 175)
        #expect(stat.cpuSeconds == 175 / ProcStat.ticksPerSecond)
        #expect(ProcStat(parsing: "") == nil)
        #expect(ProcStat(parsing: "1 (cut short) S 1 2 3") == nil)
    }

    @Test func statusGivesResidentAndPeakBytes() {
        let text = "Name:\tbench\nVmPeak:\t  900000 kB\nVmHWM:\t   53248 kB\nVmRSS:\t   40960 kB\nThreads:\t9\n"
        let status = ProcStatus(parsing: text)
        #expect(status.residentBytes == 40960 * 1024 && status.peakResidentBytes == 53248 * 1024)
        // Kernel threads have no memory lines.
        let kernel = ProcStatus(parsing: "Name:\tkthreadd\n")
        #expect(kernel.residentBytes == 0 && kernel.peakResidentBytes == 0)
    }

    @Test func thisProcessIsReadableFromProc() throws {
        let stat = try #require(ProcStat.read(pid: getpid()))
        let status = try #require(ProcStatus.read(pid: getpid()))
        #expect(status.peakResidentBytes >= status.residentBytes && status.residentBytes > 0)
        #expect(ThisProcess.residentBytes() > 0)
        // Both clocks count this process's CPU; /proc only in whole ticks.
        #expect(ThisProcess.cpuSeconds() + 1 / ProcStat.ticksPerSecond >= stat.cpuSeconds)
        #expect(!ThisProcess.threadCPUSecondsByName().isEmpty)
    }
}
