import Foundation

/// The memory lines of one process's `/proc/<pid>/status` (Linux).
public struct ProcStatus: Sendable, Equatable {
    /// Resident set size now (`VmRSS`), bytes.
    public var residentBytes: Int
    /// The largest resident set size so far (`VmHWM`, the high-water mark), bytes.
    public var peakResidentBytes: Int

    /// Parses the file's text. A line that is missing reads as 0: kernel threads have none, and
    /// a benchmark's table would rather show 0 MB than lose the row.
    public init(parsing text: String) {
        func bytes(_ key: String) -> Int {
            // "VmHWM:\t   53248 kB": the key, the number, the unit (always kB).
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(key + ":") }) else { return 0 }
            let words = line.split(whereSeparator: \.isWhitespace)
            return words.count > 1 ? (Int(words[1]) ?? 0) * 1024 : 0
        }
        residentBytes = bytes("VmRSS")
        peakResidentBytes = bytes("VmHWM")
    }

    /// Nil if the process has ended (its status file is gone).
    public static func read(pid: pid_t) -> ProcStatus? {
        (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)).map(ProcStatus.init(parsing:))
    }
}
