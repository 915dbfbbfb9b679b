import Foundation

/// Instructions this process has executed, when it runs under QEMU with the counting plugin of
/// `Benchmarks/instruction-count/insncount.c` and `SAFEWALK_INSTRUCTION_COUNT_FILE` names the
/// plugin's `out=` file:
///
///     SAFEWALK_INSTRUCTION_COUNT_FILE=/tmp/n qemu-x86_64 -plugin libinsncount.so,out=/tmp/n PROGRAM …
///
/// Instructions repeat where CPU seconds on this shared VM do not (the same restore measured
/// 4.3 and 5.9 CPU seconds in two runs an hour apart, its raw-scan baseline 1.0 and 1.8).
public enum InstructionCount {
    /// The count file, or nil when not running under the counter.
    public static var file: String? { ProcessInfo.processInfo.environment["SAFEWALK_INSTRUCTION_COUNT_FILE"] }

    /// The total so far. The plugin rewrites its file every 100 ms, so this waits 250 ms first (the
    /// process sleeps meanwhile: a few thousand instructions, against the millions measured).
    public static func now() -> Int? {
        guard let file else { return nil }
        usleep(250_000)
        return read(file)
    }

    /// The total in the plugin's `out=` file at `path`; nil before its first write.
    public static func read(_ path: String) -> Int? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Instructions `body` executed, or nil when not running under the counter.
    public static func of(_ body: () throws -> Void) rethrows -> Int? {
        let start = now()
        try body()
        guard let start, let end = now() else { return nil }
        return end - start
    }
}
