import BenchSupport
import Foundation

/// CPU seconds (user + system) this process has used so far. The publishers run in this
/// process in both phases, so the difference between the phases is what ingest costs.
func processCPUSeconds() -> Double {
    ThisProcess.cpuSeconds()
}

/// CPU seconds another process has used so far: the broker's share of each phase.
func processCPUSeconds(pid: pid_t) -> Double {
    ProcStat.read(pid: pid)?.cpuSeconds ?? .nan
}

/// CPU seconds per thread name in this process: which kind of thread (libmosquitto network
/// threads, the Swift concurrency pool, GRDB's dispatch queues) spent it.
func threadCPUSecondsByName() -> [String: Double] {
    ThisProcess.threadCPUSecondsByName()
}

/// The growth of each thread name's CPU between two readings, in µs per fix, largest first.
func threadCPUPerFix(from before: [String: Double], to after: [String: Double], fixes: Int) -> String {
    after.map { ($0.key, 1e6 * ($0.value - (before[$0.key] ?? 0)) / Double(fixes)) }
        .filter { $0.1 >= 0.05 }
        .sorted { $0.1 > $1.1 }
        .map { String(format: "%@ %.1f", $0.0, $0.1) }
        .joined(separator: ", ")
}
