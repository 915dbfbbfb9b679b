import Foundation
import Logging
import SafeWalkMQTT
import Synchronization
import TestSupport
import Testing

/// A re-subscription the broker refuses after a reconnect (SUBACK 0x80, as NATS answers until
/// JetStream has re-elected after a node died) is asked for again until it is granted. On a real
/// Mosquitto with the dynamic-security plugin, whose default subscribe access denies the filter
/// across a restart and then allows it again; changing that default disconnects nobody, so only
/// asking again can bring the subscription back.
@Suite("A refused re-subscription is asked for again", .holdsResources)
struct RefusedResubscribeTests {
    /// Tells a test each refusal as it happens.
    final class Refusals: MQTTObserver {
        let stream: AsyncStream<String>
        private let continuation: AsyncStream<String>.Continuation
        init() { (stream, continuation) = AsyncStream.makeStream() }
        func didReceive(topic: String, bytes: Int) {}
        func didPublish(topic: String, qos: QoS) {}
        func didConnect(sessionPresent: Bool) {}
        func didLoseConnection() {}
        func didRefuseSubscription(filter: String) { continuation.yield(filter) }
    }

    /// A broker with only the plugin, its admin `admin`, and `svc`, who may subscribe to anything
    /// while the default subscribe access allows it.
    static func broker() async throws -> MosquittoBroker {
        let seed = try await DynamicSecurityBroker.initialFile(admin: "admin", password: "admin-pw")
        defer { try? FileManager.default.removeItem(at: seed.deletingLastPathComponent()) }
        let json = try Data(contentsOf: seed)
        let plugin = try SecuredBroker.dynamicSecurityPlugin()
        return try await MosquittoBroker.startRetryingPort {
            try MosquittoBroker { port, directory in
                try json.write(to: directory.appendingPathComponent("dynsec.json"))
                return [
                    "listener \(port) 127.0.0.1", "plugin \(plugin)",
                    "plugin_opt_config_file \(directory.path)/dynsec.json", "persistence true",
                    "persistence_location \(directory.path)/", "log_dest file \(directory.path)/mosquitto.log",
                    "log_type all",
                ].joined(separator: "\n")
            }
        }
    }

    /// Sends the plugin `commands` as the admin and waits for its answer.
    static func control(_ broker: MosquittoBroker, _ commands: String) async throws {
        let admin = try await broker.client(username: "admin", password: "admin-pw")
        let answers = try await admin.subscribe("$CONTROL/dynamic-security/v1/response", qos: .atLeastOnce)
        try await admin.publish("$CONTROL/dynamic-security/v1", string: #"{"commands":["# + commands + "]}")
        let answer = try #require(try await answers.first(1).first?.string)
        #expect(!answer.contains("error"), "\(answer)")
        await admin.shutdown()
    }

    static func subscribeAccess(allow: Bool) -> String {
        #"{"command":"setDefaultACLAccess","acls":[{"acltype":"subscribe","allow":\#(allow)}]}"#
    }

    @Test func aFilterRefusedAfterARestartIsHeardAgainOnceTheBrokerAllowsIt() async throws {
        let broker = try await Self.broker()
        try await Self.control(
            broker,
            #"{"command":"createClient","username":"svc","password":"svc-pw"},"#
                + #"{"command":"setDefaultACLAccess","acls":[{"acltype":"publishClientSend","allow":true}]},"#
                + Self.subscribeAccess(allow: true))
        let refusals = Refusals()
        var logger = Logger(label: "test.resubscriber")
        logger.logLevel = .critical
        let subscriber = try MQTTClient(
            configuration: MQTTConfiguration(
                port: broker.port, clientID: "resubscriber", username: "svc", password: "svc-pw",
                cleanSession: true, reconnectDelayMin: 1, reconnectDelayMax: 2, observer: refusals),
            logger: logger)
        try await withTimeout(30, "connect") { try await subscriber.connect() }
        let publisher = try await broker.client(username: "svc", password: "svc-pw")
        try await publisher.publish("rs/kept", string: "kept", retain: true)
        await publisher.shutdown()
        let messages = try await subscriber.subscribe("rs/#", qos: .atLeastOnce)
        #expect(try await messages.first(1).map(\.string) == ["kept"])

        // Denied across a restart: the clean session is gone, and asking again is refused.
        try await Self.control(broker, Self.subscribeAccess(allow: false))
        try await broker.restart()
        let refused = try await withTimeout(30, "the re-subscription refused") {
            for await filter in refusals.stream { return filter }
            throw HarnessError.timedOut("no refusal")
        }
        #expect(refused == "rs/#")

        // Allowed again with no restart and no disconnection: only asking again brings the
        // subscription back, and with it the retained message.
        try await Self.control(broker, Self.subscribeAccess(allow: true))
        #expect(try await messages.first(1, within: 60).map(\.string) == ["kept"])
        #expect(subscriber.connectionCounts.losses == 1, "heard again without another reconnect")
        await subscriber.shutdown()
        await broker.shutdown()
    }
}
