import BenchSupport
import Foundation
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import TestSupport

/// One run: a plain Mosquitto (anonymous, loopback, packets not logged), the release
/// `contacts-store` beside this program, and the clients standing in for web, the watchdog,
/// location-ingest and the users' phones.
final class CircleRun: Sendable {
    let plan: CirclePlan
    let broker: MosquittoBroker
    let store: ChildProcess
    /// Publishes as web, the users, the watchdog and location-ingest (for the walkers with an
    /// incident), and the baseline's messages: one publisher for both sides of each comparison.
    let publisher: MQTTClient
    /// Publishes the positions of walkers nobody may see.
    let crowd: MQTTClient
    /// The phones: every inbox and every shared view, on one connection.
    let observer: MQTTClient
    /// The baseline's subscribers, one per viewer, each on its own connection.
    let fanout: [MQTTClient]

    private init(
        plan: CirclePlan, broker: MosquittoBroker, store: ChildProcess, publisher: MQTTClient, crowd: MQTTClient,
        observer: MQTTClient, fanout: [MQTTClient]
    ) {
        self.plan = plan
        self.broker = broker
        self.store = store
        self.publisher = publisher
        self.crowd = crowd
        self.observer = observer
        self.fanout = fanout
    }

    static func start(_ plan: CirclePlan) async throws -> CircleRun {
        let broker = try await MosquittoBroker.start(logPackets: false)
        let watcher = try await broker.client()
        let status = try await watcher.subscribe(Topic.serviceStatus(.contactsStore).name(), qos: .atLeastOnce)
        let store = try ServiceProcess.start(
            .contactsStore, broker: broker, environment: ["SAFEWALK_LOG_LEVEL": "warning"])
        do {
            try await withTimeout(30, "contacts-store online") {
                for await message in status where message.string == "online" { return }
            }
        } catch {
            store.signal(SIGKILL)
            await broker.shutdown()
            throw HarnessError.processFailed("contacts-store did not come online: \(store.output.suffix(3000))")
        }
        await watcher.shutdown()
        var fanout: [MQTTClient] = []
        for index in 0..<plan.followers { fanout.append(try await broker.client("fanout-\(index)")) }
        return CircleRun(
            plan: plan, broker: broker, store: store, publisher: try await broker.client("publisher"),
            crowd: try await broker.client("crowd"), observer: try await broker.client("observer"), fanout: fanout)
    }

    /// contacts-store's resident memory now, bytes.
    func storeResidentBytes() -> Int { ProcStatus.read(pid: store.pid)?.residentBytes ?? 0 }

    func storeCPUSeconds() -> Double { ProcStat.read(pid: store.pid)?.cpuSeconds ?? .nan }

    func brokerCPUSeconds() async -> Double {
        guard let pid = await broker.pid else { return .nan }
        return ProcStat.read(pid: pid)?.cpuSeconds ?? .nan
    }

    /// contacts-store's CPU seconds per thread name (libmosquitto's network thread, the Swift
    /// concurrency pool, SQLite's callers): where its time goes, without a profiler.
    func storeThreadCPUSeconds() -> [String: Double] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(store.pid)/task")) ?? []
        var byName: [String: Double] = [:]
        for task in tasks {
            guard let thread = ProcStat.read("/proc/\(store.pid)/task/\(task)/stat") else { continue }
            byName[thread.command, default: 0] += thread.cpuSeconds
        }
        return byName
    }

    /// The size of contacts-store's data directory (its SQLite file, WAL and log), bytes.
    func storeDataBytes() -> Int {
        let directory = store.logFile.deletingLastPathComponent()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.reduce(0) { total, name in
            let path = directory.appendingPathComponent(name).path
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            return total + (name.hasSuffix(".log") ? 0 : size)
        }
    }

    func stop() async {
        for client in [publisher, crowd, observer] + fanout { await client.shutdown() }
        store.signal(SIGTERM)
        _ = try? await store.waitForExit(within: 10)
        await broker.shutdown()
    }
}
