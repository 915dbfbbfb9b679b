import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The project's secured broker (its own mosquitto.conf, with its `message_size_limit`, and its
/// ACL) and the five real executables, each with a metrics port of its own to scrape.
///
/// The secured broker, not an open one: hostile input must arrive the way it would in production,
/// so each kind is published by the only user the ACL lets write it (the walker for its own input
/// topics, a service user for topics only a service writes).
final class HostileStack: Sendable {
    static let services: [ServiceName] = [.locationIngest, .watchdog, .companionChat, .notifier, .contactsStore]
    static let walker = SelectedCorpus.walker

    static var passwords: [String: String] {
        var all = ["operator": "pw-operator", walker: "pw-\(walker)"]
        for service in services { all[service.rawValue] = "pw-\(service)" }
        return all
    }

    let broker: MosquittoBroker
    let processes: [ServiceName: ChildProcess]
    let metricsPorts: [ServiceName: Int]

    private init(broker: MosquittoBroker, processes: [ServiceName: ChildProcess], metricsPorts: [ServiceName: Int]) {
        self.broker = broker
        self.processes = processes
        self.metricsPorts = metricsPorts
    }

    /// Starts everything and waits until all five services are `online`.
    static func start() async throws -> HostileStack {
        let broker = try await SecuredBroker.start(users: passwords)
        let observer = try await broker.client("operator-start", username: "operator", password: passwords["operator"])
        let statuses = try await observer.subscribe("safewalk/_service/+", qos: .atLeastOnce)
        var processes: [ServiceName: ChildProcess] = [:]
        var ports: [ServiceName: Int] = [:]
        for service in services {
            var port = try Loopback.freePort()
            while ports.values.contains(port) || port == broker.port { port = try Loopback.freePort() }
            ports[service] = port
            processes[service] = try ServiceProcess.start(
                service, broker: broker,
                environment: [
                    "SAFEWALK_MQTT_USERNAME": service.rawValue, "SAFEWALK_MQTT_PASSWORD": passwords[service.rawValue]!,
                    "SAFEWALK_METRICS_PORT": "\(port)",
                ])
        }
        let stack = HostileStack(broker: broker, processes: processes, metricsPorts: ports)
        do {
            try await withTimeout(60, "all five services online") {
                var online = Set<String>()
                for await message in statuses where message.string == "online" {
                    online.insert(message.topic)
                    if online.count == services.count { break }
                }
            }
            for (service, port) in ports {
                try await eventually("\(service) metrics endpoint", within: 20) { Loopback.isAccepting(port: port) }
            }
        } catch {
            await observer.shutdown()
            throw HarnessError.processFailed("stack did not start: \(error)\n\(stack.logs)")
        }
        await observer.shutdown()
        return stack
    }

    /// A client logged in as `user` (the walker, a service user or `operator`).
    func client(as user: String) async throws -> MQTTClient {
        try await broker.client(
            "\(user)-hostile-\(UUID().uuidString.prefix(6))", username: user,
            password: Self.passwords[user])
    }

    /// The services that have exited (none should).
    var exited: [ServiceName: Int32] {
        processes.compactMapValues { $0.exitStatusIfEnded() }
    }

    /// `safewalk_rejections_total` of `service` by reason, scraped from its `/metrics`.
    func rejections(of service: ServiceName) async throws -> [String: Int] {
        let url = URL(string: "http://127.0.0.1:\(metricsPorts[service]!)/metrics")!
        let (data, _) = try await URLSession.shared.data(from: url)
        return PrometheusText.counter(
            "safewalk_rejections_total", by: "reason", in: String(decoding: data, as: UTF8.self))
    }

    var logs: String {
        processes.sorted { $0.key.rawValue < $1.key.rawValue }
            .map { "----- \($0.key) -----\n\($0.value.output.suffix(3000))" }.joined(separator: "\n")
    }

    func stop() async {
        for process in processes.values { process.signal(SIGTERM) }
        for process in processes.values { _ = try? await process.waitForExit(within: 15) }
        await broker.shutdown()
    }
}
