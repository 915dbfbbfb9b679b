import BenchSupport
import Foundation
import Synchronization

/// Small measuring helpers for the benchmarks.
enum Measure {
    /// Resident set size of this process in bytes.
    static func residentBytes() -> Int { ThisProcess.residentBytes() }

    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try body()
        return elapsed(since: start)
    }

    /// Wall and CPU seconds (all of this process's threads) of `body`. CPU time is what to compare
    /// on a shared machine: other work stretches wall time, but hardly the CPU the body used.
    static func timed(_ body: () throws -> Void) rethrows -> (wall: Double, cpu: Double) {
        let (start, cpuStart) = (ContinuousClock.now, ThisProcess.cpuSeconds())
        try body()
        return (elapsed(since: start), ThisProcess.cpuSeconds() - cpuStart)
    }

    static func elapsed(since start: ContinuousClock.Instant) -> Double {
        let c = (ContinuousClock.now - start).components
        return Double(c.seconds) + Double(c.attoseconds) * 1e-18
    }

    static func mb(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_048_576) }
}

/// Samples appended from many tasks (a `Mutex` cannot be captured by value, so it lives here).
final class Samples: Sendable {
    private let values = Mutex<[Double]>([])
    func append(_ value: Double) { values.withLock { $0.append(value) } }
    var sorted: SortedSamples { SortedSamples(values.withLock { $0 }) }
    var count: Int { values.withLock { $0.count } }
}
