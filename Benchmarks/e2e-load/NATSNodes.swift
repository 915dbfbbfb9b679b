import Foundation
import Logging
import SafeWalkMQTT
import TestSupport

/// Three NATS nodes with JetStream and MQTT on loopback, routed into one cluster: the engine
/// docs/SCALING.md chose, started as `scripts/lib/nats-cluster.sh` starts it, for the fault
/// cases that kill a broker node under load.
actor NATSNodes {
    static let count = 3

    nonisolated let directory: URL
    /// Each node's MQTT port, node 0 first.
    nonisolated let mqttPorts: [Int]
    private nonisolated let clientPorts: [Int]
    private nonisolated let routePorts: [Int]
    private var processes: [Int: ChildProcess] = [:]

    init() async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "safewalk-nats-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        mqttPorts = try (0..<Self.count).map { _ in try Loopback.freePort() }
        clientPorts = try (0..<Self.count).map { _ in try Loopback.freePort() }
        routePorts = try (0..<Self.count).map { _ in try Loopback.freePort() }
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
        listen: 127.0.0.1:\(clientPorts[node])
        jetstream { store_dir: "\(directory.path)/js\(node)" }
        cluster {
          name: safewalk
          listen: 127.0.0.1:\(routePorts[node])
          routes: [\(routePorts.map { "nats-route://127.0.0.1:\($0)" }.joined(separator: ", "))]
        }
        mqtt {
          listen: 127.0.0.1:\(mqttPorts[node])
          # A QoS 1 message sent to a connection that died unacknowledged is sent again only after
          # ack_wait (30 s by default): a walker's reply to a SIGKILLed watchdog reached its
          # restart 13 s late and it escalated. Clients acknowledge on receipt (libmosquitto).
          ack_wait: "5s"
        }
        """
    }

    func start(_ node: Int) throws {
        let process = try ChildProcess(
            Self.executable, ["-c", configFile(node).path],
            logFile: directory.appendingPathComponent("nats\(node).log"))
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
                    port: mqttPorts[node], clientID: "nats-ready-\(node)", cleanSession: true, reconnectDelayMax: 1),
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
        if !keep { try? FileManager.default.removeItem(at: directory) }
    }

    /// Debian installs it in /usr/sbin, which is not on every user's PATH.
    static var executable: String {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        return (path + ["/usr/sbin", "/usr/bin"]).map { "\($0)/nats-server" }
            .first { FileManager.default.isExecutableFile(atPath: $0) } ?? "nats-server"
    }
}
