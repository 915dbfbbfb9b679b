import Foundation
import Logging
import SafeWalkMQTT
import TestSupport

/// Three NATS nodes with JetStream and MQTT on loopback, routed into one cluster: the engine
/// docs/SCALING.md chose, started as `scripts/lib/nats-cluster.sh` starts it, for the fault
/// cases that kill a broker node under load. With `isolated`, each node runs in a network
/// namespace of its own (``NodeNetwork``), so that one can be partitioned from the rest.
actor NATSNodes {
    static let count = 3

    nonisolated let directory: URL
    /// Each node's MQTT listener, node 0 first.
    nonisolated let mqtt: [MQTTNode]
    /// The nodes' own network, when they are isolated.
    nonisolated let network: NodeNetwork?
    /// Each node's address: loopback, or its namespace's.
    private nonisolated let hosts: [String]
    private nonisolated let clientPorts: [Int]
    private nonisolated let routePorts: [Int]
    private var processes: [Int: ChildProcess] = [:]
    /// Subject mappings every node carries (the walkers' partitions), or nil.
    private nonisolated let mappings: String?

    init(isolated: Bool = false, mappings: String? = nil) async throws {
        self.mappings = mappings
        try NATSVersion.require(Self.executable)
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "safewalk-nats-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        network = isolated ? try NodeNetwork(nodes: Self.count) : nil
        let hosts = network?.hosts ?? Array(repeating: "127.0.0.1", count: Self.count)
        self.hosts = hosts
        // Nine listeners in all: each port different from every other.
        let ports = try Loopback.freePorts(3 * Self.count)
        let mqttPorts = Array(ports[0..<Self.count])
        mqtt = (0..<Self.count).map { MQTTNode(host: hosts[$0], port: mqttPorts[$0]) }
        clientPorts = Array(ports[Self.count..<2 * Self.count])
        routePorts = Array(ports[2 * Self.count..<3 * Self.count])
        for node in 0..<Self.count {
            try config(node).write(to: configFile(node), atomically: true, encoding: .utf8)
            try start(node)
        }
        for node in 0..<Self.count { try await waitReady(node) }
    }

    private nonisolated func configFile(_ node: Int) -> URL { directory.appendingPathComponent("nats\(node).conf") }

    private nonisolated func config(_ node: Int) -> String {
        """
        server_name: n\(node)
        listen: \(hosts[node]):\(clientPorts[node])
        jetstream { store_dir: "\(directory.path)/js\(node)" }
        cluster {
          name: safewalk
          listen: \(hosts[node]):\(routePorts[node])
          routes: [\(routePorts.indices.map { "nats-route://\(hosts[$0]):\(routePorts[$0])" }.joined(separator: ", "))]
        }
        mqtt {
          listen: \(mqtt[node].host):\(mqtt[node].port)
          # A QoS 1 message sent to a connection that died unacknowledged is sent again only after
          # ack_wait (30 s by default): a walker's reply to a SIGKILLed watchdog reached its
          # restart 13 s late and it escalated. Clients acknowledge on receipt (libmosquitto).
          ack_wait: "5s"
        }
        \(mappings ?? "")
        """
    }

    func start(_ node: Int) throws {
        let arguments = ["-c", configFile(node).path]
        let (executable, inNamespace) =
            network?.command(node: node, Self.executable, arguments) ?? (Self.executable, arguments)
        let process = try ChildProcess(
            executable, inNamespace, logFile: directory.appendingPathComponent("nats\(node).log"))
        processes[node] = process
        Cleanup.register(process.pid)
    }

    /// Until a QoS 1 publish to the node is acknowledged: its JetStream has its leaders.
    func waitReady(_ node: Int, within seconds: Double = 90) async throws {
        var logger = Logger(label: "nats-ready")
        logger.logLevel = .critical
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            let probe = try MQTTClient(
                configuration: MQTTConfiguration(
                    host: mqtt[node].host, port: mqtt[node].port, clientID: "nats-ready-\(node)", cleanSession: true,
                    reconnectDelayMax: 1),
                logger: logger)
            let acknowledged: Bool =
                (try? await withTimeout(5, "node \(node) ready") {
                    try await probe.connect()
                    try await probe.publish("safewalk/_ready", string: "x", qos: .atLeastOnce)
                    return true
                }) ?? false
            await probe.shutdown()
            if acknowledged { return }
            try await Task.sleep(for: .seconds(1))
        }
        throw HarnessError.timedOut("NATS node \(node) to acknowledge a QoS 1 publish")
    }

    func kill(_ node: Int) async {
        guard let process = processes.removeValue(forKey: node) else { return }
        process.signal(SIGKILL)
        _ = try? await process.waitForExit(within: 10)
    }

    var pids: [(String, pid_t)] { processes.sorted { $0.key < $1.key }.map { ("nats-server \($0.key)", $0.value.pid) } }

    func shutdown(keep: Bool) async {
        for process in processes.values { process.signal(SIGTERM) }
        for process in processes.values where (try? await process.waitForExit(within: 10)) == nil {
            process.signal(SIGKILL)
        }
        processes = [:]
        network?.teardown()
        if !keep { try? FileManager.default.removeItem(at: directory) }
    }

    static var executable: String { SystemExecutable.find("nats-server") }
}
