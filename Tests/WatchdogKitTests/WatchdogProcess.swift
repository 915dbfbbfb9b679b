import Foundation
import SafeWalkCore
import SafeWalkMQTT
import Synchronization
import TestSupport

/// The real `watchdog` executable against a real broker, with thresholds shortened by
/// environment variables, plus a test client that plays the walkers.
final class WatchdogProcess: Sendable {
    let broker: MosquittoBroker
    let dataDirectory: URL
    let environment: [String: String]
    let client: MQTTClient
    /// `safewalk/_service/watchdog`, kept open for the whole test: online → offline → online.
    let presence: MQTTSubscription
    private let process: Mutex<ChildProcess?>

    init(broker: MosquittoBroker, thresholds: [String: String]) async throws {
        self.broker = broker
        dataDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("safewalk-watchdog-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        environment["SAFEWALK_MQTT_PORT"] = "\(broker.port)"
        environment["SAFEWALK_DATA_DIR"] = dataDirectory.path
        environment["SAFEWALK_LOG_LEVEL"] = "info"
        environment["SAFEWALK_METRICS_PORT"] = "off"  // tests run in parallel; no fixed port
        // No notifier here to receipt escalations: no copies within a test unless it asks for them.
        environment["SAFEWALK_ESCALATION_RECEIPT_WAIT"] = "600"
        for (key, value) in thresholds { environment[key] = value }
        self.environment = environment
        client = try await broker.client("walkers-\(UUID().uuidString.prefix(6))")
        presence = try await client.subscribe(Topic.serviceStatus(.watchdog).name(), qos: .atLeastOnce)
        process = Mutex(nil)
    }

    /// A watchdog whose only clock that runs is a walk's ETA: check-ins, movement and presence
    /// wait 600 s.
    static func walkOnly(on broker: MosquittoBroker) async throws -> WatchdogProcess {
        try await WatchdogProcess(
            broker: broker,
            thresholds: [
                "SAFEWALK_CHECKIN_INTERVAL": "600", "SAFEWALK_NO_MOVEMENT_AFTER": "600",
                "SAFEWALK_OFFLINE_GRACE": "600",
            ])
    }

    /// alice starts a walk due in 3 s; returns its ETA once the watch is written (the status
    /// `statuses` hears is published after the write).
    func startShortWalk(_ statuses: MQTTSubscription) async throws -> Double {
        try await act("alice", .startWalk(destination: "Jester West", minutes: 0.05))
        guard let eta = try await statuses.next(WatchStatus.self).walk?.eta else { throw WalkNotStarted() }
        return eta
    }

    struct WalkNotStarted: Error {}

    /// Starts the executable and waits for its retained `online`.
    func start() async throws {
        let child = try ChildProcess(
            try Executables.product("watchdog").path, [], environment: environment,
            logFile: dataDirectory.appendingPathComponent("watchdog.log"))
        process.withLock { $0 = child }
        try await waitFor(.online)
    }

    func waitFor(_ state: Presence) async throws {
        try await withTimeout(20, "watchdog \(state)") { [presence] in
            for await message in presence where Presence(payload: message.payload) == state { return }
        }
    }

    /// SIGKILL: no goodbye, no chance to flush anything. Waits for the broker's Last Will.
    func kill() async throws {
        let child = process.withLock { $0 }
        child?.signal(SIGKILL)
        _ = try await child?.waitForExit(within: 10)
        try await waitFor(.offline)
    }

    var log: String { process.withLock { $0 }?.output ?? "" }

    func send(_ topic: Topic, _ value: some Encodable) async throws {
        try await client.publish(topic.name(), payload: try SafeWalkJSON.encode(value))
    }

    func act(_ walker: String, _ kind: Action.Kind) async throws {
        try await send(.action(try WalkerID(walker)), Action(id: UUID().uuidString, kind: kind))
    }

    func subscribe(_ filter: String) async throws -> MQTTSubscription {
        try await client.subscribe(filter, qos: .atLeastOnce)
    }

    func shutdown() async {
        let child = process.withLock { $0 }
        child?.signal(SIGTERM)
        _ = try? await child?.waitForExit(within: 10)
        await client.shutdown()
        await broker.shutdown()
        try? FileManager.default.removeItem(at: dataDirectory)
    }
}

func now() -> EpochSeconds { Date().timeIntervalSince1970 }

extension MQTTSubscription {
    /// The next message decoded as `T`.
    func next<T: Decodable>(_ type: T.Type, within seconds: Double = 15) async throws -> T {
        try SafeWalkJSON.decode(type, from: try await first(1, within: seconds)[0].payload)
    }
}
