import Foundation
import SafeWalkCore
import TestSupport

/// The system under test: a real Mosquitto (production limits, persistence on, anonymous on
/// loopback because the simulated phones share connections), the fake Twilio, and the five
/// real release executables, each with its own data directory and stable client id.
actor Cluster {
    static let services: [ServiceName] = [.locationIngest, .watchdog, .companionChat, .notifier, .contactsStore]

    let broker: MosquittoBroker
    let gateway: FakeSMSGateway
    let root: URL
    let environment: [String: String]
    private(set) var processes: [ServiceName: ChildProcess] = [:]
    /// Data directories that are a tmpfs mount (disk-full injection), unmounted at shutdown.
    private var mounts: [URL] = []
    /// The service whose SQLite directory is the tmpfs.
    nonisolated let tmpfsService: ServiceName?
    /// The command each process runs under, by name (`mosquitto` or the service's): empty in load
    /// and fault runs, QEMU's instruction counter in the cost run (``InstructionCounter``).
    nonisolated let launcher: @Sendable (String) -> [String]

    init(
        thresholds: Thresholds, tmpfsFor: ServiceName? = nil,
        launcher: @escaping @Sendable (String) -> [String] = { _ in [] }
    ) async throws {
        let broker = try await MosquittoBroker.startRetryingPort {
            try MosquittoBroker(launcher: launcher("mosquitto")) { port, directory in
                Self.brokerConfig(port: port, directory: directory)
            }
        }
        self.launcher = launcher
        self.broker = broker
        gateway = try await FakeSMSGateway()
        if let pid = await broker.pid { Cleanup.register(pid) }
        Cleanup.register(gateway.processID)
        root = broker.directory.appendingPathComponent("services")
        tmpfsService = tmpfsFor
        var env = thresholds.environment.merging(gateway.environment) { $1 }
        env["SAFEWALK_CHANNELS"] = "device,log,sms-http"
        env["SAFEWALK_LOG_LEVEL"] = "info"
        environment = env
        for service in Self.services {
            let data = databaseDirectory(service)
            try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
            if service == tmpfsFor {
                try Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=64m", "tmpfs", data.path])
                mounts.append(data)
                Cleanup.register(mount: data.path)
            }
        }
    }

    /// Production limits from `mosquitto/mosquitto.conf` (persistence saved every 5 s, queue
    /// 200k raised to 2M so a benchmark never hits it, in-flight 100), `$SYS` every 2 s for the
    /// broker's own counters, and warnings only in the log (per-packet logging would dominate).
    static func brokerConfig(port: Int, directory: URL) -> String {
        """
        listener \(port) 127.0.0.1
        allow_anonymous true
        persistence true
        persistence_location \(directory.path)/
        autosave_interval 5
        max_queued_messages 2000000
        max_inflight_messages 100
        message_size_limit 262144
        sys_interval 2
        log_dest file \(directory.path)/mosquitto.log
        log_type error
        log_type warning
        """
    }

    /// The service's directory: its log, and its SQLite file unless that is on a tmpfs.
    nonisolated func dataDirectory(_ service: ServiceName) -> URL { root.appendingPathComponent(service.rawValue) }

    /// `SAFEWALK_DATA_DIR`: a tmpfs mounted below the service's directory for disk-full faults, so
    /// the service's log (in its directory) still has room to say what is wrong.
    nonisolated func databaseDirectory(_ service: ServiceName) -> URL {
        service == tmpfsService ? dataDirectory(service).appendingPathComponent("db") : dataDirectory(service)
    }

    func start(_ service: ServiceName) throws {
        var env = environment
        env["SAFEWALK_MQTT_CLIENT_ID"] = "load-\(service)"
        env["SAFEWALK_DATA_DIR"] = databaseDirectory(service).path
        let process = try ServiceProcess.start(
            service, broker: broker, environment: env, dataDirectory: dataDirectory(service),
            launcher: launcher(service.rawValue))
        processes[service] = process
        Cleanup.register(process.pid)
    }

    /// SIGTERM (persistence saved), `pause` seconds down, then the same port and files again.
    func restartBroker(pause: Double) async throws {
        await broker.stop()
        try await Task.sleep(for: .seconds(pause))
        try await broker.start()
        if let pid = await broker.pid { Cleanup.register(pid) }
    }

    func startAll() throws {
        for service in Self.services { try start(service) }
    }

    func signal(_ service: ServiceName, _ signal: Int32) { processes[service]?.signal(signal) }

    /// SIGKILL and reap.
    func kill(_ service: ServiceName) async {
        guard let process = processes[service] else { return }
        process.signal(SIGKILL)
        _ = try? await process.waitForExit(within: 10)
    }

    func pids() async -> [(String, pid_t)] {
        var result = Self.services.compactMap { service in processes[service].map { (service.rawValue, $0.pid) } }
        if let pid = await broker.pid { result.append(("mosquitto", pid)) }
        result.append(("fake-sms (python)", gateway.processID))
        return result
    }

    /// SIGTERM to every service (each drains and stops), then the gateway and broker.
    func stopServices() async {
        for process in processes.values { process.signal(SIGTERM) }
        for (service, process) in processes {
            if (try? await process.waitForExit(within: 20)) == nil {
                say("\(service) did not stop within 20 s; killing it")
                process.signal(SIGKILL)
            }
        }
    }

    func shutdown(keep: Bool) async {
        await stopServices()
        await gateway.shutdown()
        for mount in mounts { _ = try? Self.run("/bin/umount", ["-l", mount.path]) }
        if keep { await broker.stop() } else { await broker.shutdown() }
    }

    func logs(_ service: ServiceName) -> String { processes[service]?.output ?? "" }

    @discardableResult
    static func run(_ path: String, _ arguments: [String]) throws -> Int32 {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cmd-\(UUID().uuidString.prefix(6)).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let process = try ChildProcess(path, arguments, logFile: log)
        var status: Int32?
        for _ in 0..<500 where status == nil {
            status = process.exitStatusIfEnded()
            if status == nil { usleep(10_000) }
        }
        guard status == 0 else { throw HarnessError.processFailed("\(path) \(arguments): \(process.output)") }
        return 0
    }
}
