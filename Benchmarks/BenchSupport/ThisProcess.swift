import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Readings of the benchmark's own process.
public enum ThisProcess {
    /// CPU seconds (user + system, every thread) used so far, from `CLOCK_PROCESS_CPUTIME_ID`:
    /// nanosecond resolution, where `/proc/self/stat` counts 10 ms ticks. It is the same total
    /// `getrusage(RUSAGE_SELF)` gives (location-ingest used that before), to the nanosecond
    /// instead of the microsecond.
    public static func cpuSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }

    /// Resident set size now, bytes (`VmRSS`: the same count of pages `/proc/self/statm`'s
    /// second field gives, which watchdog-bench read before); 0 if it cannot be read.
    public static func residentBytes() -> Int {
        ProcStatus.read(pid: getpid())?.residentBytes ?? 0
    }

    /// CPU seconds per thread name (`/proc/self/task/*/stat`), summed over threads of one name:
    /// which kind of thread (a library's network threads, the Swift concurrency pool, dispatch
    /// queues) spent it. Threads that ended before the reading are not in it.
    public static func threadCPUSecondsByName() -> [String: Double] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        var byName: [String: Double] = [:]
        for task in tasks {
            guard let thread = ProcStat.read("/proc/self/task/\(task)/stat") else { continue }
            byName[thread.command, default: 0] += thread.cpuSeconds
        }
        return byName
    }
}
