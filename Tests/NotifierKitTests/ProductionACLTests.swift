import Foundation
import Logging
import NotifierKit
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkStorage
import TestSupport
import Testing

/// The notifier executable and the out-of-process example channel, each logged in as its own
/// user on a broker running the project's own mosquitto.conf and ACL.
@Suite("notifier and an external channel under the production ACL", .holdsResources)
struct ProductionACLTests {
    @Test func bothDeliverAnEscalationUsingOnlyTheirOwnBrokerUsers() async throws {
        let users = [
            "notifier": "n-secret", "channel-example": "c-secret", "watchdog": "w-secret",
            "contacts-store": "s-secret", "operator": "o-secret",
        ]
        let broker = try await SecuredBroker.start(users: users)
        let operatorClient = try await broker.client(username: "operator", password: "o-secret")
        let receipts = try await operatorClient.subscribe(
            TopicFilter.every(.delivery).rawValue, qos: .atLeastOnce)
        let status = try await operatorClient.subscribe(Topic.serviceStatus(.notifier).name(), qos: .atLeastOnce)
        let store = try await broker.client(username: "contacts-store", password: "s-secret")
        try await store.publish(
            Topic.contacts(Fixtures.walker).name(),
            payload: SafeWalkJSON.encode(ContactList(contacts: [Fixtures.ana])), retain: true)

        let notifier = try ServiceProcess.start(
            .notifier, broker: broker,
            environment: [
                "SAFEWALK_MQTT_USERNAME": "notifier", "SAFEWALK_MQTT_PASSWORD": "n-secret",
                "SAFEWALK_CHANNELS": "device,log", "SAFEWALK_CONTACTS_SETTLE": "0.5",
            ])
        try await withTimeout(15, "notifier online") {
            for await message in status where message.string == "online" { return }
        }

        let (pool, directory) = try SQLiteStore.temporary(migrator: EscalationSubscriber.migrator)
        let channelClient = try await broker.client(
            "channel-example", username: "channel-example", password: "c-secret")
        var logger = Logger(label: "test.channel-example")
        logger.logLevel = .warning
        let channel = EscalationSubscriber(
            name: "file", bus: channelClient, prefix: "safewalk", database: pool, logger: logger,
            deliver: FileAppendChannel(file: directory.appendingPathComponent("out.jsonl")).deliver)
        let subscription = try await channel.subscribe()
        let channelTask = Task { try await channel.consume(subscription) }

        let watchdog = try await broker.client(username: "watchdog", password: "w-secret")
        try await watchdog.publish(
            Topic.escalation(Fixtures.walker).name(),
            payload: SafeWalkJSON.encode(Fixtures.escalation("esc-acl")))
        let got = try await receipts.first(3, within: 15).map {
            try SafeWalkJSON.decoder().decode(DeliveryReceipt.self, from: $0.payload)
        }
        #expect(Set(got.map(\.channel)) == ["device", "log", "file"])
        #expect(got.allSatisfy { $0.status == .sent && $0.escalationId == "esc-acl" })

        channelTask.cancel()
        _ = await channelTask.result
        notifier.signal(SIGTERM)
        #expect(try await notifier.waitForExit(within: 10) == 0)
        for client in [operatorClient, store, channelClient, watchdog] { await client.shutdown() }
        await broker.shutdown()
        try? FileManager.default.removeItem(at: directory)
    }
}
