import Foundation
import Logging
import SafeWalkMQTT

extension MosquittoBroker {
    /// A connected client of this broker. Shut it down at the end of the test.
    public nonisolated func client(
        _ id: String = "test-\(UUID().uuidString.prefix(8))", cleanSession: Bool = true,
        username: String? = nil, password: String? = nil, lastWill: MQTTMessage? = nil
    ) async throws -> MQTTClient {
        var logger = Logger(label: "test.\(id)")
        logger.logLevel = .warning
        let client = try MQTTClient(
            configuration: MQTTConfiguration(
                port: port, clientID: id, username: username, password: password,
                cleanSession: cleanSession, keepAliveSeconds: 20, lastWill: lastWill, reconnectDelayMax: 2),
            logger: logger)
        try await withTimeout(10, "connect \(id)") { try await client.connect() }
        return client
    }
}

extension MQTTSubscription {
    /// Whatever arrived so far, without waiting: ends the subscription and drains it (what a
    /// privacy test reads after a marker proved delivery happened).
    public func drained() async -> [MQTTMessage] {
        cancel()
        var all: [MQTTMessage] = []
        for await message in self { all.append(message) }
        return all
    }

    /// The next `count` messages, failing the test after `seconds` instead of hanging.
    public func first(_ count: Int, within seconds: Double = 10) async throws -> [MQTTMessage] {
        try await withTimeout(seconds, "\(count) message(s) on \(filter)") {
            var received: [MQTTMessage] = []
            for await message in self {
                received.append(message)
                if received.count == count { break }
            }
            return received
        }
    }
}
