import Foundation

/// CPU seconds and memory of another process, from `/proc/<pid>/stat` and `/proc/<pid>/status`.
struct ProcSample: Sendable {
    var cpuSeconds: Double
    /// Peak resident set size (`VmHWM`), bytes.
    var peakRSS: Int
    var rss: Int

    static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    static func read(_ pid: pid_t) -> ProcSample? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // Fields after the command name: state is field 3, utime 14 and stime 15 (1-based).
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        func kilobytes(_ key: String) -> Int {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(key) }) else { return 0 }
            return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
        }
        return ProcSample(
            cpuSeconds: (user + system) / ticksPerSecond, peakRSS: kilobytes("VmHWM:"), rss: kilobytes("VmRSS:"))
    }

    /// This process (the simulated phones and the observer).
    static func this() -> ProcSample? { read(getpid()) }
}

/// Percentiles and formatting.
enum Stats {
    /// Nearest-rank percentile (0...100) of sorted samples.
    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    static func summary(_ samples: [Double]) -> String {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return "no samples" }
        return String(
            format: "p50 %.0f ms, p99 %.0f ms, max %.0f ms (n=%d)", percentile(sorted, 50) * 1000,
            percentile(sorted, 99) * 1000, sorted.last! * 1000, sorted.count)
    }

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
