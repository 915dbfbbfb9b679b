import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real `mosquitto` on a free 127.0.0.1 port, with a generated config in its own temporary
/// directory. Stop it (or kill it) when done; `restart()` brings it back on the same port with
/// the same persistence file, as a broker restart in production would.
public actor MosquittoBroker {
    public nonisolated let port: Int
    public nonisolated let directory: URL
    private let configFile: URL
    private var process: ChildProcess?
    /// A command the broker runs under (`qemu-x86_64 -plugin …` in the cost benchmark); empty runs
    /// it directly.
    private let launcher: [String]

    /// - Parameters:
    ///   - persistence: keep sessions and QoS 1 messages across `restart()`.
    ///   - extraConfig: lines appended to the generated config (auth, ACLs, limits).
    ///   - logPackets: log every packet (what tests want when they fail); benchmarks turn it
    ///     off and log what the production config logs, or logging becomes the bottleneck.
    public init(persistence: Bool = false, extraConfig: String = "", logPackets: Bool = true) throws {
        try self.init { port, directory in
            [
                "listener \(port) 127.0.0.1",
                "allow_anonymous true",
                "log_dest file \(directory.path)/mosquitto.log",
                logPackets ? "log_type all" : "log_type error\nlog_type warning\nlog_type notice\nlog_type information",
                "max_queued_messages 100000",
                "persistence \(persistence)",
                "persistence_location \(directory.path)/",
                "autosave_interval 1",
                extraConfig,
            ].joined(separator: "\n")
        }
    }

    /// A broker whose whole config is `configuration(port, directory)`: for testing the
    /// project's own config files with paths and listener rewritten for the test.
    public init(
        launcher: [String] = [], configuration: (_ port: Int, _ directory: URL) throws -> String
    ) throws {
        self.launcher = launcher
        port = try Loopback.freePort()
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("safewalk-broker-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        configFile = directory.appendingPathComponent("mosquitto.conf")
        var text = try configuration(port, directory)
        // As root mosquitto switches to the `mosquitto` user, who could not write our directory.
        if getuid() == 0 { text += "\nuser root" }
        try text.appending("\n").write(to: configFile, atomically: true, encoding: .utf8)
    }

    deinit {
        // A test that threw before `shutdown()` must not leave a broker running.
        process?.signal(SIGKILL)
        _ = process?.exitStatusIfEnded()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts a broker and waits until it accepts connections.
    public static func start(
        persistence: Bool = false, extraConfig: String = "",
        logPackets: Bool = true
    ) async throws -> MosquittoBroker {
        try await startRetryingPort {
            try MosquittoBroker(persistence: persistence, extraConfig: extraConfig, logPackets: logPackets)
        }
    }

    /// Makes and starts a broker, with a fresh port if another process took the chosen one first.
    public static func startRetryingPort(_ make: () throws -> MosquittoBroker) async throws -> MosquittoBroker {
        try await Loopback.retryingTakenPort("mosquitto") {
            let broker = try make()
            try await broker.start()
            return broker
        }
    }

    public func start() async throws {
        guard process == nil else { return }
        let mosquitto = try Executables.find("mosquitto", in: ["/usr/sbin", "/usr/bin", "/usr/local/sbin"])
        let command = launcher + [mosquitto.path, "-c", configFile.path]
        let process = try ChildProcess(
            command[0], Array(command.dropFirst()),
            logFile: directory.appendingPathComponent("stdout.log"))
        self.process = process
        // Under an emulator the broker takes seconds to start.
        let deadline = ContinuousClock.now + .seconds(launcher.isEmpty ? 10 : 60)
        while !Loopback.isAccepting(port: port) {
            if process.exitStatusIfEnded() != nil {
                self.process = nil
                throw HarnessError.processFailed("mosquitto exited: \(log)\(process.output)")
            }
            guard ContinuousClock.now < deadline else { throw HarnessError.timedOut("mosquitto on port \(port)") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// SIGTERM: a clean stop (persistence saved).
    public func stop() async {
        await signal(SIGTERM)
    }

    /// SIGKILL: the broker dies with no chance to save.
    public func kill() async {
        await signal(SIGKILL)
    }

    public func restart() async throws {
        await stop()
        try await start()
    }

    private func signal(_ signal: Int32) async {
        guard let process else { return }
        process.signal(signal)
        _ = try? await process.waitForExit(within: 10)
        self.process = nil
    }

    /// The running broker's process id (for CPU and memory readings in benchmarks); nil when stopped.
    public var pid: pid_t? { process?.pid }

    /// Sends `signal` to the running broker without waiting (SIGSTOP/SIGCONT in fault injection).
    public func send(_ signal: Int32) { process?.signal(signal) }

    /// The broker's own log, for failure messages.
    public var log: String {
        (try? String(contentsOf: directory.appendingPathComponent("mosquitto.log"), encoding: .utf8)) ?? ""
    }

    /// Stops the broker and removes its directory.
    public func shutdown() async {
        await stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
