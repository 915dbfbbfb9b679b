import BenchSupport
import Foundation

/// CPU seconds and peak memory of one process (a service, the broker or this one), read from
/// `/proc` the same way for each, so the rows of one table compare.
struct ProcSample: Sendable {
    var cpuSeconds: Double
    /// Peak resident set size (`VmHWM`), bytes.
    var peakRSS: Int

    /// Nil once the process has ended.
    static func read(_ pid: pid_t) -> ProcSample? {
        guard let stat = ProcStat.read(pid: pid), let status = ProcStatus.read(pid: pid) else { return nil }
        return ProcSample(cpuSeconds: stat.cpuSeconds, peakRSS: status.peakResidentBytes)
    }

    /// This process (the simulated phones and the observer).
    static func this() -> ProcSample? { read(getpid()) }
}

/// Memory as the tables print it (whole megabytes).
enum Stats {
    static func mb(_ bytes: Int) -> String { String(format: "%.0f MB", Double(bytes) / 1_048_576) }
}

/// `String(format:)` for numbers only (`%@` with Swift strings is not portable to Linux).
func f(_ format: String, _ values: CVarArg...) -> String { String(format: format, arguments: values) }

func epochNow() -> Double { Date().timeIntervalSince1970 }

func sleep(untilEpoch t: Double) async {
    let wait = t - epochNow()
    if wait > 0 { try? await Task.sleep(for: .milliseconds(Int(wait * 1000))) }
}

func say(_ text: String) {
    let stamp = String(format: "%7.1f", epochNow().truncatingRemainder(dividingBy: 10_000))
    print("[\(stamp)] \(text)")
    fflush(nil)
}
