import Foundation
import SafeWalkCore
import TestSupport

/// The real `contacts-store` executable on `broker`, with its SQLite file in the broker's
/// directory, started and waited for until it says `online` (a live message, not the retained
/// one a previous run left).
enum ContactsStoreProcess {
    static func start(on broker: MosquittoBroker, env extra: [String: String] = [:]) async throws -> ChildProcess {
        var env = ProcessInfo.processInfo.environment
        env["SAFEWALK_MQTT_PORT"] = "\(broker.port)"
        env["SAFEWALK_DATA_DIR"] = broker.directory.appendingPathComponent("contacts-data").path
        env.merge(extra) { $1 }
        let watcher = try await broker.client()
        defer { Task { await watcher.shutdown() } }
        let status = try await watcher.subscribe(Topic.serviceStatus(.contactsStore).name(), qos: .atLeastOnce)
        let process = try ChildProcess(
            try Executables.product("contacts-store").path, [], environment: env,
            logFile: broker.directory.appendingPathComponent("contacts-store.log"))
        do {
            try await withTimeout(15, "contacts-store online") {
                for await message in status where message.string == "online" && !message.retain { return }
            }
        } catch {
            process.signal(SIGKILL)
            throw HarnessError.processFailed("contacts-store did not come online: \(process.output)")
        }
        return process
    }
}
