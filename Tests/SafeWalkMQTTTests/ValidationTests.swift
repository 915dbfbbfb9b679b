import Foundation
import Logging
import SafeWalkMQTT
import TestSupport
import Testing

@Suite("MQTT client errors", .holdsResources)
struct ValidationTests {
    @Test func publishingToAWildcardTopicIsATypedError() async throws {
        let broker = try await MosquittoBroker.start()
        let client = try await broker.client()
        await #expect(throws: MQTTError.invalidTopic("safewalk/+/fix")) {
            try await client.publish("safewalk/+/fix", string: "x")
        }
        await #expect(throws: MQTTError.invalidTopic("safewalk/#/fix")) {
            _ = try await client.subscribe("safewalk/#/fix", qos: .atLeastOnce)
        }
        await client.shutdown(); await broker.shutdown()
    }

    @Test func badConfigurationIsRejectedBeforeConnecting() {
        #expect(throws: MQTTError.self) {
            _ = try MQTTClient(configuration: MQTTConfiguration(port: 0, clientID: "x"), logger: Logger(label: "t"))
        }
        #expect(throws: MQTTError.self) {
            _ = try MQTTClient(configuration: MQTTConfiguration(clientID: ""), logger: Logger(label: "t"))
        }
        #expect(throws: MQTTError.self) {
            _ = try MQTTClient(
                configuration: MQTTConfiguration(clientID: "x", password: "secret"), logger: Logger(label: "t"))
        }
    }

    @Test func wrongPasswordIsRefusedWithATypedError() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pw-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let passwords = directory.appendingPathComponent("passwd")
        let (status, _) = try await ChildProcess.run(
            try Executables.find("mosquitto_passwd"),
            ["-c", "-b", passwords.path, "alice", "right-password"])
        try #require(status == 0)
        let broker = try await MosquittoBroker.start(
            extraConfig: "allow_anonymous false\npassword_file \(passwords.path)\n")
        let good = try await broker.client(username: "alice", password: "right-password")
        #expect(good.isConnected)
        let bad = try MQTTClient(
            configuration: MQTTConfiguration(port: broker.port, clientID: "bad", username: "alice", password: "wrong"),
            logger: Logger(label: "t"))
        await #expect(throws: MQTTError.connectionRefused(code: 5, reason: "Connection Refused: not authorised.")) {
            try await withTimeout(10) { try await bad.connect() }
        }
        await good.shutdown(); await bad.shutdown(); await broker.shutdown()
    }

    @Test func publishAfterShutdownFailsInsteadOfHanging() async throws {
        let broker = try await MosquittoBroker.start()
        let client = try await broker.client()
        await client.shutdown()
        await #expect(throws: MQTTError.shutDown) {
            try await client.publish("rt/after", string: "x", qos: .atLeastOnce)
        }
        await broker.shutdown()
    }
}
