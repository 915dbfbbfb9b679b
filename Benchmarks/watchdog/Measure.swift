import Foundation
import Synchronization

/// Small measuring helpers for the benchmarks.
enum Measure {
    /// Resident set size of this process in bytes (Linux `/proc/self/statm`).
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try body()
        return elapsed(since: start)
    }

    /// Wall and CPU seconds (all of this process's threads) of `body`. CPU time is what to compare
    /// on a shared machine: other work stretches wall time, but hardly the CPU the body used.
    static func timed(_ body: () throws -> Void) rethrows -> (wall: Double, cpu: Double) {
        let (start, cpuStart) = (ContinuousClock.now, processCPUSeconds())
        try body()
        return (elapsed(since: start), processCPUSeconds() - cpuStart)
    }

    static func processCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }

    static func elapsed(since start: ContinuousClock.Instant) -> Double {
        let c = (ContinuousClock.now - start).components
        return Double(c.seconds) + Double(c.attoseconds) * 1e-18
    }

    /// p-th percentile (0...100) of unsorted samples, nearest rank.
    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    static func summary(_ samples: [Double]) -> String {
        let sorted = samples.sorted()
        return String(
            format: "p50 %.1f ms, p99 %.1f ms, max %.1f ms (n=%d)",
            percentile(sorted, 50) * 1000, percentile(sorted, 99) * 1000, (sorted.last ?? .nan) * 1000,
            sorted.count)
    }

    static func mb(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_048_576) }
}

/// Samples appended from many tasks (a `Mutex` cannot be captured by value, so it lives here).
final class Samples: Sendable {
    private let values = Mutex<[Double]>([])
    func append(_ value: Double) { values.withLock { $0.append(value) } }
    var all: [Double] { values.withLock { $0 } }
    var count: Int { values.withLock { $0.count } }
}
