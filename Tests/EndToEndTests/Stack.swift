import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport

/// The whole product on one machine: the project's secured broker (its own mosquitto.conf and
/// acl, every user with a password) and the five real service executables, with thresholds
/// shortened by configuration so a story takes seconds, never by sleeping through them.
final class Stack: Sendable {
    static let services: [ServiceName] = [.locationIngest, .watchdog, .companionChat, .notifier, .contactsStore]
    static let walkers = [
        "alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi",
        "ivan", "judy", "kate", "liam", "mia", "noah",
    ]

    static var passwords: [String: String] {
        var all = ["operator": "pw-operator"]
        for service in services { all[service.rawValue] = "pw-\(service)" }
        for walker in walkers { all[walker] = "pw-\(walker)" }
        return all
    }

    /// Story-length thresholds (seconds).
    static let thresholds = [
        "SAFEWALK_CHECKIN_INTERVAL": "1", "SAFEWALK_NO_REPLY_AFTER": "2", "SAFEWALK_NO_MOVEMENT_AFTER": "3",
        "SAFEWALK_OFFLINE_GRACE": "1", "SAFEWALK_MOVEMENT_METERS": "5", "SAFEWALK_HOLD_HEARTBEAT": "1",
    ]

    let broker: MosquittoBroker
    let processes: [ServiceName: ChildProcess]
    /// Logged in as `operator`: reads every topic, writes none.
    let observer: MQTTClient

    private init(broker: MosquittoBroker, processes: [ServiceName: ChildProcess], observer: MQTTClient) {
        self.broker = broker
        self.processes = processes
        self.observer = observer
    }

    /// Starts the broker and the five services and waits until all five report `online`.
    static func start(environment: [String: String] = [:]) async throws -> Stack {
        let broker = try await SecuredBroker.start(users: passwords)
        let observer = try await broker.client(
            "operator-\(UUID().uuidString.prefix(6))",
            username: "operator", password: passwords["operator"])
        let statuses = try await observer.subscribe("safewalk/_service/+", qos: .atLeastOnce)
        var processes: [ServiceName: ChildProcess] = [:]
        for service in services {
            processes[service] = try ServiceProcess.start(
                service, broker: broker,
                environment:
                    thresholds
                    .merging([
                        "SAFEWALK_MQTT_USERNAME": service.rawValue,
                        "SAFEWALK_MQTT_PASSWORD": passwords[service.rawValue]!,
                    ]) { $1 }
                    .merging(environment) { $1 })
        }
        let stack = Stack(broker: broker, processes: processes, observer: observer)
        do {
            try await withTimeout(60, "all five services online") {
                var online = Set<String>()
                for await message in statuses where message.string == "online" {
                    online.insert(message.topic)
                    if online.count == services.count { break }
                }
            }
        } catch {
            throw HarnessError.processFailed("stack did not start: \(error)\n\(stack.logs)")
        }
        statuses.cancel()
        return stack
    }

    /// A walker's phone, logged in as the walker, with its Last Will on its presence topic.
    func phone(_ walker: String, lastWill: Bool = true) async throws -> MQTTClient {
        let will = MQTTMessage(topic: "safewalk/\(walker)/presence", payload: Presence.offline.payload, retain: true)
        return try await broker.client(
            "\(walker)-phone-\(UUID().uuidString.prefix(6))", username: walker,
            password: Stack.passwords[walker], lastWill: lastWill ? will : nil)
    }

    /// Everything each service logged, for failure messages.
    var logs: String {
        processes.sorted { $0.key.rawValue < $1.key.rawValue }
            .map { "----- \($0.key) -----\n\($0.value.output.suffix(4000))" }.joined(separator: "\n")
    }

    func stop() async {
        for process in processes.values { process.signal(SIGTERM) }
        for process in processes.values { _ = try? await process.waitForExit(within: 15) }
        await observer.shutdown()
        await broker.shutdown()
    }
}
