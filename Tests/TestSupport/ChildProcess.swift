import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A child process started with posix_spawn and a clean signal state.
///
/// Foundation's `Process` hands the child the parent's blocked-signal mask, and test runners
/// block SIGTERM on their threads: a broker or service spawned that way ignores SIGTERM forever.
/// Here the mask is emptied and every signal reset to its default, as a shell would.
public final class ChildProcess: Sendable {
    public let pid: pid_t
    public let executable: String
    public let logFile: URL

    /// Starts `executable` with `arguments`; stdout and stderr go to `logFile`.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        logFile: URL
    ) throws {
        self.executable = executable
        self.logFile = logFile
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logFile.path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)

        let env = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard rc == 0 else { throw HarnessError.system("posix_spawn \(executable)", rc) }
        self.pid = pid
    }

    deinit {
        // Never leave a child behind, even when a test failed before stopping it.
        if exitStatusIfEnded() == nil {
            _ = Glibc.kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }

    public func signal(_ signal: Int32) { _ = Glibc.kill(pid, signal) }

    /// The exit status if the process has ended (reaping it), nil while it runs.
    /// A process killed by a signal reports 128 + the signal number, as a shell does.
    public func exitStatusIfEnded() -> Int32? {
        var status: Int32 = 0
        let rc = waitpid(pid, &status, WNOHANG)
        guard rc == pid else { return rc == -1 ? -1 : nil }
        let signalled = status & 0x7f
        return signalled == 0 ? (status >> 8) & 0xff : 128 + signalled
    }

    /// Waits (polling, without blocking a thread) for the process to end.
    public func waitForExit(within seconds: Double = 10) async throws -> Int32 {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while true {
            if let status = exitStatusIfEnded() { return status }
            guard ContinuousClock.now < deadline else { throw HarnessError.timedOut("\(executable) to exit") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    public var output: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }
}

extension ChildProcess {
    /// Runs a short command to completion and returns its exit status and output (stdout and
    /// stderr together; a signal reports 128 + its number, as a shell does).
    ///
    /// Started like every other child here (posix_spawn, empty signal mask, every signal at its
    /// default; `ChildSignalStateTests` checks both), its output goes to a file and its end is
    /// polled, so `within` always holds: past it the command is killed and the call throws. It
    /// ran on swift-subprocess until a clean-clone CI run of 096c881 stalled with six tests
    /// waiting forever and the process idle; a wait that no timeout can end must not be in the
    /// harness, whatever stalled there.
    @discardableResult
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
        in directory: URL? = nil, within seconds: Double = 30
    ) async throws -> (status: Int32, output: String) {
        _ = await ConcurrencyGate.commands.enter()
        defer { Task { await ConcurrencyGate.commands.leave() } }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent(
            "run-\(executable.lastPathComponent)-\(UUID().uuidString.prefix(8)).log")
        defer { try? FileManager.default.removeItem(at: output) }
        // Swift's Glibc does not import posix_spawn_file_actions_addchdir_np: a shell changes
        // directory, then becomes the command.
        let (path, argv) =
            if let directory {
                ("/bin/sh", ["-c", #"cd "$0" && exec "$@""#, directory.path, executable.path] + arguments)
            } else {
                (executable.path, arguments)
            }
        let child = try ChildProcess(path, argv, environment: environment, logFile: output)
        let status: Int32
        do {
            status = try await child.waitForExit(within: seconds)
        } catch {
            child.signal(SIGKILL)
            _ = try? await child.waitForExit(within: 5)
            throw HarnessError.timedOut("\(executable.lastPathComponent) to exit")
        }
        return (status, child.output)
    }
}
