import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// CPU seconds (user + system) this process has used so far. The publishers run in this
/// process in both phases, so the difference between the phases is what ingest costs.
func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    func s(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return s(usage.ru_utime) + s(usage.ru_stime)
}

/// The command name and CPU seconds (user + system, fields 14 and 15 in clock ticks) of one
/// `/proc/.../stat` file.
private func cpuSeconds(statFile path: String) -> (name: String, seconds: Double)? {
    guard let stat = try? String(contentsOfFile: path, encoding: .utf8),
        let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
    else { return nil }
    // Fields after the command name start at field 3 (state).
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
    return (String(stat[stat.index(after: open)..<close]), (user + system) / Double(sysconf(Int32(_SC_CLK_TCK))))
}

/// CPU seconds another process has used so far: the broker's share of each phase.
func processCPUSeconds(pid: pid_t) -> Double {
    cpuSeconds(statFile: "/proc/\(pid)/stat")?.seconds ?? .nan
}

/// CPU seconds per thread name in this process (`/proc/self/task/*/stat`): which kind of thread
/// (libmosquitto network threads, the Swift concurrency pool, GRDB's dispatch queues) spent it.
func threadCPUSecondsByName() -> [String: Double] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    var byName: [String: Double] = [:]
    for task in tasks {
        guard let thread = cpuSeconds(statFile: "/proc/self/task/\(task)/stat") else { continue }
        byName[thread.name, default: 0] += thread.seconds
    }
    return byName
}

/// The growth of each thread name's CPU between two readings, in µs per fix, largest first.
func threadCPUPerFix(from before: [String: Double], to after: [String: Double], fixes: Int) -> String {
    after.map { ($0.key, 1e6 * ($0.value - (before[$0.key] ?? 0)) / Double(fixes)) }
        .filter { $0.1 >= 0.05 }
        .sorted { $0.1 > $1.1 }
        .map { String(format: "%@ %.1f", $0.0, $0.1) }
        .joined(separator: ", ")
}
