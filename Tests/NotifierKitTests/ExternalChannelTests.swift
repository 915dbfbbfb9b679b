import Foundation
import Logging
import NotifierKit
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkStorage
import TestSupport
import Testing

/// The out-of-process channel example of docs/CHANNELS.md, run against a real broker with its
/// own client (and broker user), exactly as the separate program would run it.
@Suite("An out-of-process channel subscribing to escalations", .holdsResources)
struct ExternalChannelTests {
    @Test func itDeliversEachEscalationOnceAcrossRestartsAndReportsOnDelivery() async throws {
        let broker = try await MosquittoBroker.start()
        let (pool, directory) = try SQLiteStore.temporary(migrator: EscalationSubscriber.migrator)
        let file = directory.appendingPathComponent("escalations.jsonl")
        let observer = try await broker.client()
        let receipts = try await observer.subscribe(TopicFilter.every(.delivery).rawValue, qos: .atLeastOnce)

        func runChannel(_ body: @Sendable (MQTTClient) async throws -> Void) async throws {
            let client = try await broker.client("channel-example", username: "channel-example")
            var logger = Logger(label: "test.file-channel")
            logger.logLevel = .warning
            let channel = FileAppendChannel(file: file)
            let subscriber = EscalationSubscriber(
                name: "file", bus: client, prefix: "safewalk", database: pool,
                logger: logger, deliver: channel.deliver)
            let subscription = try await subscriber.subscribe()
            let task = Task { try await subscriber.consume(subscription) }
            try await body(client)
            task.cancel()
            _ = await task.result
            await client.shutdown()
        }

        @Sendable func publish(_ event: EscalationEvent) async throws {
            try await observer.publish(Topic.escalation(event.walker).name(), payload: SafeWalkJSON.encode(event))
        }

        try await runChannel { _ in
            try await publish(Fixtures.escalation("esc-a"))
            try await publish(Fixtures.escalation("esc-a"))  // duplicate
            try await observer.publish("safewalk/alex/escalation", string: "{broken")
            try await publish(Fixtures.escalation("esc-b"))
            let got = try await receipts.first(2).map {
                try SafeWalkJSON.decoder().decode(DeliveryReceipt.self, from: $0.payload)
            }
            #expect(got.map(\.escalationId) == ["esc-a", "esc-b"])
            #expect(got.allSatisfy { $0.channel == "file" && $0.status == .sent })
        }
        // A restart of the channel program: what it handled stays handled.
        try await runChannel { _ in
            try await publish(Fixtures.escalation("esc-a"))
            try await publish(Fixtures.escalation("esc-c"))
            let got = try await receipts.first(1).map {
                try SafeWalkJSON.decoder().decode(DeliveryReceipt.self, from: $0.payload)
            }
            #expect(got.map(\.escalationId) == ["esc-c"])
        }
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
        let ids = try lines.map { try SafeWalkJSON.decoder().decode(EscalationEvent.self, from: Data($0.utf8)).id }
        #expect(ids == ["esc-a", "esc-b", "esc-c"])
        await observer.shutdown(); await broker.shutdown()
        try? FileManager.default.removeItem(at: directory)
    }
}
