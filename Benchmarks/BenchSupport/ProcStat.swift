import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One process's or thread's `/proc/<pid>/stat` (Linux): its command name and the CPU time it
/// has used. Reading another process's file is how a benchmark charges the broker or a service
/// for its share, without asking it.
public struct ProcStat: Sendable, Equatable {
    /// The command name (thread name for a `/proc/<pid>/task/<tid>/stat`), without the parentheses.
    public var command: String
    /// User + system time (fields 14 and 15, `utime` and `stime`), in clock ticks.
    public var cpuTicks: Int

    /// Clock ticks per second (`_SC_CLK_TCK`, usually 100: a reading is good to 10 ms).
    public static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    public var cpuSeconds: Double { Double(cpuTicks) / Self.ticksPerSecond }

    /// Parses the one line of a stat file; nil if it is not one.
    public init?(parsing line: String) {
        // The name is in parentheses and may itself hold spaces and parentheses, so it runs from
        // the first "(" to the last ")"; the numbered fields follow it, field 3 (state) first.
        guard let open = line.firstIndex(of: "("), let close = line.lastIndex(of: ")"), open < close else {
            return nil
        }
        let fields = line[line.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        command = String(line[line.index(after: open)..<close])
        cpuTicks = user + system
    }

    /// The stat file at `path`; nil if it cannot be read (the process ended) or parsed.
    public static func read(_ path: String) -> ProcStat? {
        (try? String(contentsOfFile: path, encoding: .utf8)).flatMap(ProcStat.init(parsing:))
    }

    public static func read(pid: pid_t) -> ProcStat? {
        read("/proc/\(pid)/stat")
    }
}
