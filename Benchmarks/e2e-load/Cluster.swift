import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport

/// The system under test: a real Mosquitto (production limits, persistence on, anonymous on
/// loopback because the simulated phones share connections) or three NATS nodes (`onNATS`), the
/// fake Twilio, and the five real release executables, each with its own data directory and
/// stable client id.
actor Cluster {
    static let services: [ServiceName] = [.locationIngest, .watchdog, .companionChat, .notifier, .contactsStore]

    /// Each instance's home node on NATS, as in scripts/cluster-stack.sh: the watchdog and the
    /// notifier share node 0, the node the cluster fault kills; with several partitions, every
    /// instance of partition K (watchdog, companion, ingest) is at home on node K mod 3, so that a
    /// node's loss takes one partition's instances with it.
    static func homeNode(_ instance: Instance) -> Int {
        if let partition = instance.partition { return partition % NATSNodes.count }
        switch instance.service {
        case .watchdog, .notifier: return 0
        case .companionChat: return 2
        default: return 1
        }
    }

    /// The Mosquitto broker; nil on NATS.
    let broker: MosquittoBroker?
    /// The NATS nodes; nil on Mosquitto.
    let nats: NATSNodes?
    /// Each broker node's MQTT listener (one for Mosquitto).
    nonisolated let nodes: [MQTTNode]
    let gateway: FakeSMSGateway
    let root: URL
    let environment: [String: String]
    /// How many partitions share the walkers (1: one instance of each service).
    nonisolated let partitions: Int
    /// Every process of the stack, the partitioned services as ``partitions`` instances each.
    nonisolated var instances: [Instance] { Instance.all(Self.services, partitions: partitions) }
    private(set) var processes: [Instance: ChildProcess] = [:]
    /// Standbys still waiting for their instance's lock.
    private var standbys: [Instance: ChildProcess] = [:]
    /// Data directories that are a tmpfs mount (disk-full injection), unmounted at shutdown.
    private var mounts: [URL] = []
    /// The service whose SQLite directory is the tmpfs.
    nonisolated let tmpfsService: ServiceName?
    /// The command each process runs under, by name (`mosquitto` or the service's): empty in load
    /// and fault runs, QEMU's instruction counter in the cost run (``InstructionCounter``).
    nonisolated let launcher: @Sendable (String) -> [String]

    /// `isolatedNodes`: on NATS, each node in a network namespace of its own (``NodeNetwork``), so
    /// that a case can partition one. `partitions` > 1: that many watchdogs, companions and
    /// ingests, each serving a partition of the walkers routed by the nodes' mappings (NATS only:
    /// Mosquitto maps nothing).
    init(
        thresholds: Thresholds, tmpfsFor: ServiceName? = nil, onNATS: Bool = false, isolatedNodes: Bool = false,
        partitions: Int = 1, launcher: @escaping @Sendable (String) -> [String] = { _ in [] }
    ) async throws {
        self.launcher = launcher
        guard partitions == 1 || onNATS else {
            throw HarnessError.processFailed("several partitions need the NATS nodes' mappings")
        }
        self.partitions = partitions
        if onNATS {
            let nats = try await NATSNodes(
                isolated: isolatedNodes,
                mappings: partitions > 1 ? WalkerPartition.natsMappings(count: partitions) : nil)
            (broker, self.nats, nodes) = (nil, nats, nats.mqtt)
            root = nats.directory.appendingPathComponent("services")
        } else {
            let broker = try await MosquittoBroker.startRetryingPort {
                try MosquittoBroker(launcher: launcher("mosquitto")) { port, directory in
                    Self.brokerConfig(port: port, directory: directory)
                }
            }
            if let pid = await broker.pid { Cleanup.register(pid) }
            (self.broker, nats, nodes) = (broker, nil, [MQTTNode(host: "127.0.0.1", port: broker.port)])
            root = broker.directory.appendingPathComponent("services")
        }
        gateway = try await FakeSMSGateway()
        Cleanup.register(gateway.processID)
        tmpfsService = tmpfsFor
        var env = thresholds.environment.merging(gateway.environment) { $1 }
        env["SAFEWALK_CHANNELS"] = "device,log,sms-http"
        env["SAFEWALK_LOG_LEVEL"] = "info"
        environment = env
        for instance in Instance.all(Self.services, partitions: partitions) {
            let data = databaseDirectory(instance)
            try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
            if instance.partition == nil, instance.service == tmpfsFor {
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

    /// The instance's directory: its log, and its SQLite file unless that is on a tmpfs.
    nonisolated func dataDirectory(_ instance: Instance) -> URL { root.appendingPathComponent(instance.description) }

    /// `SAFEWALK_DATA_DIR`: a tmpfs mounted below the service's directory for disk-full faults, so
    /// the service's log (in its directory) still has room to say what is wrong.
    nonisolated func databaseDirectory(_ instance: Instance) -> URL {
        instance.partition == nil && instance.service == tmpfsService
            ? dataDirectory(instance).appendingPathComponent("db") : dataDirectory(instance)
    }

    nonisolated func databaseDirectory(_ service: ServiceName) -> URL { databaseDirectory(Instance(service)) }

    /// What `instance` runs with, its standby included: one client id and one data directory, its
    /// partition, and on NATS its home node with the others as failover.
    private func environment(for instance: Instance) -> [String: String] {
        var env = environment
        env["SAFEWALK_MQTT_CLIENT_ID"] = "load-\(instance)"
        env["SAFEWALK_DATA_DIR"] = databaseDirectory(instance).path
        if let partition = instance.partition {
            env["SAFEWALK_PARTITIONS"] = "\(partitions)"
            env["SAFEWALK_PARTITION"] = "\(partition)"
        }
        if nats != nil {
            let (node, failover) = endpoint(home: Self.homeNode(instance))
            env["SAFEWALK_MQTT_HOST"] = node.host
            env["SAFEWALK_MQTT_PORT"] = "\(node.port)"
            env["SAFEWALK_MQTT_FAILOVER"] = failover.map(\.description).joined(separator: ",")
        }
        return env
    }

    func start(_ instance: Instance) throws {
        let process = try ServiceProcess.start(
            instance.service, broker: broker, environment: environment(for: instance),
            dataDirectory: dataDirectory(instance), launcher: launcher(instance.service.rawValue))
        processes[instance] = process
        Cleanup.register(process.pid)
    }

    /// SIGTERM (persistence saved), `pause` seconds down, then the same port and files again.
    func restartBroker(pause: Double) async throws {
        guard let broker else { throw HarnessError.processFailed("a broker restart is a Mosquitto fault") }
        await broker.stop()
        try await Task.sleep(for: .seconds(pause))
        try await broker.start()
        if let pid = await broker.pid { Cleanup.register(pid) }
    }

    /// SIGKILL of one NATS node, `down` seconds down, then the same node (its JetStream files)
    /// again, until it acknowledges a QoS 1 publish.
    func killNode(_ node: Int, down: Double) async throws {
        guard let nats else { throw HarnessError.processFailed("a node kill is a NATS fault") }
        await nats.kill(node)
        try await Task.sleep(for: .seconds(down))
        try await nats.start(node)
        try await nats.waitReady(node)
    }

    /// Cuts NATS node `node` off from everything (the other nodes, the services, the phones) for
    /// `seconds`, then heals it and waits until it acknowledges a QoS 1 publish again. Throws,
    /// failing the run, if the node could still be reached once cut, or if a service at home on
    /// it was still there when the cut healed: then the case did not test what it says.
    func partitionNode(_ node: Int, seconds: Double) async throws {
        guard let nats, let network = nats.network else {
            throw HarnessError.processFailed("a partition needs the NATS nodes in their own namespaces")
        }
        let homed = instances.filter { Self.homeNode($0) == node }
        let movesBefore = homed.map { Self.moves(in: logs($0)) }
        let cut = epochNow()
        try network.partition(node)
        // A TCP connect with a time limit: libmosquitto's own connect would wait minutes on a
        // node that drops the SYN.
        if NodeProbe.accepts(nats.mqtt[node], within: 2) {
            throw HarnessError.processFailed("NATS node \(node) still accepted a connection once cut off")
        }
        try await Task.sleep(for: .seconds(max(0, cut + seconds - epochNow())))
        let stayed = homed.indices.filter { Self.moves(in: logs(homed[$0])) == movesBefore[$0] }.map { homed[$0] }
        try network.heal(node)
        say("node \(node) healed; \(homed.map(\.description).joined(separator: ", ")) had moved: \(stayed.isEmpty)")
        try await nats.waitReady(node)
        guard stayed.isEmpty else {
            throw HarnessError.processFailed(
                "\(stayed.map(\.description).joined(separator: ", ")) never left node \(node) while it was cut off")
        }
    }

    /// How many times a service's log says it moved to another broker node.
    static func moves(in log: String) -> Int {
        log.components(separatedBy: "moving to another broker node").count - 1
    }

    /// Where a client at home on `node` connects: that node, then the others.
    nonisolated func endpoint(home node: Int) -> (node: MQTTNode, failover: [MQTTNode]) {
        let home = node % nodes.count
        return (nodes[home], nodes.indices.filter { $0 != home }.map { nodes[$0] })
    }

    /// A second process of `instance` on the same data directory and client id, waiting on its
    /// instance lock (`SAFEWALK_STANDBY=true`) to take over when the running one dies. Its log
    /// is `standby/<service>.log` in the instance's directory.
    func startStandby(_ instance: Instance) async throws {
        var env = environment(for: instance)
        env["SAFEWALK_STANDBY"] = "true"
        let process = try ServiceProcess.start(
            instance.service, broker: broker, environment: env,
            dataDirectory: dataDirectory(instance).appendingPathComponent("standby"),
            launcher: launcher(instance.service.rawValue))
        standbys[instance] = process
        Cleanup.register(process.pid)
        try await Self.waitForLog(process, "standing by", failure: "\(instance)'s standby is not waiting")
    }

    /// SIGKILL of `instance`; its standby takes over. Returns the seconds from the kill until the
    /// standby said `ready` (restored, connected, subscribed); the standby is then the instance.
    func killAndFailOver(_ instance: Instance) async throws -> Double {
        guard let standby = standbys.removeValue(forKey: instance) else {
            throw HarnessError.processFailed("\(instance) has no standby")
        }
        let killed = epochNow()
        await kill(instance)
        try await Self.waitForLog(standby, "] ready", failure: "\(instance)'s standby did not take over")
        processes[instance] = standby
        return epochNow() - killed
    }

    /// Polls `process`'s log (every 20 ms, at most 60 s) until it says `text`; throws `failure`,
    /// with the log's end, if it never does or the process ends first.
    private static func waitForLog(_ process: ChildProcess, _ text: String, failure: String) async throws {
        let deadline = epochNow() + 60
        while !process.output.contains(text) {
            guard epochNow() < deadline, process.exitStatusIfEnded() == nil else {
                throw HarnessError.processFailed("\(failure): \(process.output.suffix(500))")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    func startAll() throws {
        for instance in instances { try start(instance) }
    }

    func signal(_ instance: Instance, _ signal: Int32) { processes[instance]?.signal(signal) }

    /// SIGKILL and reap.
    func kill(_ instance: Instance) async {
        guard let process = processes[instance] else { return }
        process.signal(SIGKILL)
        _ = try? await process.waitForExit(within: 10)
    }

    func pids() async -> [(String, pid_t)] {
        var result = instances.compactMap { instance in processes[instance].map { (instance.description, $0.pid) } }
        if let pid = await broker?.pid { result.append(("mosquitto", pid)) }
        if let nats { result += await nats.pids }
        result.append(("fake-sms (python)", gateway.processID))
        return result
    }

    /// SIGTERM to every service (each drains and stops), then the gateway and broker.
    func stopServices() async {
        for process in standbys.values {
            process.signal(SIGKILL)  // holds nothing: it never took over
            _ = try? await process.waitForExit(within: 10)
        }
        standbys = [:]
        for process in processes.values { process.signal(SIGTERM) }
        for (instance, process) in processes {
            if (try? await process.waitForExit(within: 20)) == nil {
                say("\(instance) did not stop within 20 s; killing it")
                process.signal(SIGKILL)
            }
        }
    }

    func shutdown(keep: Bool) async {
        await stopServices()
        await gateway.shutdown()
        for mount in mounts { _ = try? Self.run("/bin/umount", ["-l", mount.path]) }
        if let broker {
            if keep { await broker.stop() } else { await broker.shutdown() }
        }
        await nats?.shutdown(keep: keep)
    }

    func logs(_ instance: Instance) -> String { processes[instance]?.output ?? "" }

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
