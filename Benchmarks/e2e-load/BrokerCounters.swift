import Foundation
import Logging
import SafeWalkMQTT
import TestSupport

/// The broker's own count of PUBLISH packets received and sent (`$SYS/broker/publish/messages/…`,
/// retained, refreshed every `sys_interval` seconds), read by a short-lived clean-session client.
struct BrokerCounters: Sendable {
    var received: Double
    var sent: Double

    static let topics = ["$SYS/broker/publish/messages/received", "$SYS/broker/publish/messages/sent"]

    static func read(port: Int, logger: Logger) async throws -> BrokerCounters {
        try await withTimeout(30, "the broker's $SYS publish counters") { try await once(port: port, logger: logger) }
    }

    private static func once(port: Int, logger: Logger) async throws -> BrokerCounters {
        let client = try MQTTClient(
            configuration: MQTTConfiguration(port: port, clientID: "cost-sys-reader", cleanSession: true),
            logger: logger)
        try await client.connect()
        var values: [String: Double] = [:]
        for topic in topics {
            let subscription = try await client.subscribe(topic, qos: .atMostOnce)
            for await batch in subscription.batches {
                if let message = batch.first { values[topic] = Double(message.string ?? "") }
                break
            }
            subscription.cancel()
        }
        await client.shutdown()
        guard let received = values[topics[0]], let sent = values[topics[1]] else {
            throw BenchError.failed("the broker's $SYS publish counters did not arrive")
        }
        return BrokerCounters(received: received, sent: sent)
    }
}
