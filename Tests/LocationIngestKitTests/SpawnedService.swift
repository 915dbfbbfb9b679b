import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport

/// The real `location-ingest` executable against a test broker, with its own data directory.
struct SpawnedIngest {
    let broker: MosquittoBroker
    let dataDirectory: URL
    var environment: [String: String] = [:]

    init(broker: MosquittoBroker, environment: [String: String] = [:]) {
        self.broker = broker
        self.dataDirectory = broker.directory.appendingPathComponent("ingest-data")
        self.environment = environment
    }

    /// Starts the service and returns once it announced `online` (it subscribes before that).
    func start() async throws -> ChildProcess {
        var env = ProcessInfo.processInfo.environment
        env["SAFEWALK_MQTT_PORT"] = "\(broker.port)"
        env["SAFEWALK_DATA_DIR"] = dataDirectory.path
        env["SAFEWALK_LOG_LEVEL"] = "info"
        env.merge(environment) { $1 }
        let watcher = try await broker.client()
        defer { Task { await watcher.shutdown() } }
        let status = try await watcher.subscribe(Topic.serviceStatus(.locationIngest).name(), qos: .atLeastOnce)
        let process = try ChildProcess(
            try Executables.product("location-ingest").path, [], environment: env,
            logFile: broker.directory.appendingPathComponent("location-ingest.log"))
        do {
            try await withTimeout(15, "location-ingest online") {
                for await message in status where message.string == "online" && !message.retain { return }
            }
        } catch {
            process.signal(SIGKILL)
            throw HarnessError.processFailed("location-ingest did not come online: \(process.output)")
        }
        return process
    }

    /// SIGTERM, and the exit status.
    func stop(_ process: ChildProcess) async throws -> Int32 {
        process.signal(SIGTERM)
        return try await process.waitForExit(within: 10)
    }
}
