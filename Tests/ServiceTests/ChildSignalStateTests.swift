import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Children start as a shell would start them, whatever this process did to its signals: nothing
/// blocked and every signal at its default. A service that inherited a blocked or ignored SIGTERM
/// would never stop when a test (or CI) asks it to. Each child is `grep` reading its own
/// `/proc/self/status` while this process blocks SIGTERM and ignores SIGUSR2 (a signal nothing
/// else here touches: ignoring SIGTERM would race the tests that install SIGTERM handlers).
@Suite(.serialized)
struct ChildSignalStateTests {
    static let grep = URL(fileURLWithPath: "/bin/grep")
    static let arguments = ["-E", "^(SigBlk|SigIgn):", "/proc/self/status"]

    struct SignalState {
        var blocked: UInt64
        var ignored: UInt64

        init(_ status: String) throws {
            func mask(_ name: String) throws -> UInt64 {
                let line = try #require(status.split(separator: "\n").first { $0.hasPrefix(name + ":") })
                return try #require(
                    UInt64(line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces), radix: 16))
            }
            blocked = try mask("SigBlk")
            ignored = try mask("SigIgn")
        }

        func has(_ signal: Int32, in mask: UInt64) -> Bool { mask & (1 << UInt64(signal - 1)) != 0 }
    }

    /// Runs `body` with SIGTERM blocked on this thread and SIGUSR2 ignored, then restores both;
    /// checks first that the parent really is in that state.
    func withDirtySignals<T>(_ body: () throws -> T) throws -> T {
        var block = sigset_t()
        sigemptyset(&block)
        sigaddset(&block, SIGTERM)
        var previousMask = sigset_t()
        pthread_sigmask(SIG_BLOCK, &block, &previousMask)
        let previousUSR2 = signal(SIGUSR2, SIG_IGN)
        defer {
            signal(SIGUSR2, previousUSR2)
            pthread_sigmask(SIG_SETMASK, &previousMask, nil)
        }
        let parent = try SignalState(try String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8))
        #expect(parent.has(SIGTERM, in: parent.blocked) && parent.has(SIGUSR2, in: parent.ignored))
        return try body()
    }

    @Test func aChildStartedByChildProcessHasNothingBlockedAndNothingOfOursIgnored() async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sigstate-\(UUID().uuidString.prefix(8)).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let child = try withDirtySignals { try ChildProcess(Self.grep.path, Self.arguments, logFile: log) }
        #expect(try await child.waitForExit() == 0, "\(child.output)")
        let state = try SignalState(child.output)
        #expect(state.blocked == 0, "\(state)")
        #expect(!state.has(SIGTERM, in: state.ignored) && !state.has(SIGUSR2, in: state.ignored), "\(state)")
    }

    /// `ChildProcess.run` (short commands) spawns from whichever thread runs the task, so only
    /// the process-wide part (an ignored signal) is set here. The mask is dirty anyway: the
    /// threads of the cooperative pool (Dispatch's workers) block most signals, and a child of
    /// ChildProcess with its mask reset switched off was seen with SigBlk fffffffe3fffffe7.
    @Test func aShortCommandHasNothingBlockedAndNothingOfOursIgnored() async throws {
        let previousUSR2 = signal(SIGUSR2, SIG_IGN)
        defer { signal(SIGUSR2, previousUSR2) }
        let (status, output) = try await ChildProcess.run(Self.grep, Self.arguments)
        #expect(status == 0, "\(output)")
        let state = try SignalState(output)
        #expect(state.blocked == 0, "\(state)")
        #expect(!state.has(SIGTERM, in: state.ignored) && !state.has(SIGUSR2, in: state.ignored), "\(state)")
    }
}
