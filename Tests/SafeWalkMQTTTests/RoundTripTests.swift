import Foundation
import SafeWalkMQTT
import TestSupport
import Testing

@Suite("MQTT client against a real mosquitto", .holdsResources)
struct RoundTripTests {
    @Test func qos0MessageArrives() async throws {
        let broker = try await MosquittoBroker.start()
        let (publisher, subscriber) = (try await broker.client(), try await broker.client())
        let messages = try await subscriber.subscribe("rt/zero", qos: .atMostOnce)
        try await publisher.publish("rt/zero", string: "hello", qos: .atMostOnce)
        let received = try await messages.first(1)
        #expect(received.map(\.string) == ["hello"])
        #expect(received.first?.qos == .atMostOnce)
        await publisher.shutdown(); await subscriber.shutdown(); await broker.shutdown()
    }

    @Test func qos1PublishReturnsAfterAcknowledgementAndArrivesInOrder() async throws {
        let broker = try await MosquittoBroker.start()
        let (publisher, subscriber) = (try await broker.client(), try await broker.client())
        let messages = try await subscriber.subscribe("rt/one", qos: .atLeastOnce)
        for index in 0..<200 {
            try await publisher.publish("rt/one", string: "\(index)", qos: .atLeastOnce)
        }
        let received = try await messages.first(200)
        #expect(received.map(\.string) == (0..<200).map { "\($0)" })
        #expect(received.allSatisfy { $0.qos == .atLeastOnce })
        await publisher.shutdown(); await subscriber.shutdown(); await broker.shutdown()
    }

    @Test func qos2PublishCompletes() async throws {
        let broker = try await MosquittoBroker.start()
        let (publisher, subscriber) = (try await broker.client(), try await broker.client())
        let messages = try await subscriber.subscribe("rt/two", qos: .exactlyOnce)
        try await publisher.publish("rt/two", string: "once", qos: .exactlyOnce)
        #expect(try await messages.first(1).map(\.string) == ["once"])
        await publisher.shutdown(); await subscriber.shutdown(); await broker.shutdown()
    }

    @Test func retainedMessageReachesALateSubscriber() async throws {
        let broker = try await MosquittoBroker.start()
        let publisher = try await broker.client()
        try await publisher.publish("safewalk/alice/status", string: "safe", retain: true)
        let late = try await broker.client()
        let messages = try await late.subscribe("safewalk/alice/status", qos: .atLeastOnce)
        let received = try await messages.first(1)
        #expect(received.first?.string == "safe")
        #expect(received.first?.retain == true)
        await publisher.shutdown(); await late.shutdown(); await broker.shutdown()
    }

    /// `admitOnly` drops refused topics before the consumer sees them; another subscription on
    /// the same topics still gets every message, and the high-water mark counts only admitted ones.
    @Test func admitOnlyDropsRefusedTopicsOnArrival() async throws {
        let broker = try await MosquittoBroker.start()
        let (publisher, subscriber) = (try await broker.client(), try await broker.client())
        let few = try await subscriber.subscribe("admit/+/position", qos: .atLeastOnce)
        few.admitOnly { $0 == "admit/alice/position" || $0 == "admit/carol/position" }
        let all = try await subscriber.subscribe("admit/#", qos: .atLeastOnce)
        for walker in ["alice", "bob", "carol", "dave", "bob", "alice"] {
            try await publisher.publish("admit/\(walker)/position", string: walker, qos: .atLeastOnce)
        }
        #expect(try await all.first(6).map(\.string) == ["alice", "bob", "carol", "dave", "bob", "alice"])
        #expect(try await few.first(3).map(\.string) == ["alice", "carol", "alice"])
        #expect(few.highWaterMark <= 3)
        await publisher.shutdown(); await subscriber.shutdown(); await broker.shutdown()
    }

    @Test func wildcardSubscriptionsMatchLikeTheBroker() async throws {
        let broker = try await MosquittoBroker.start()
        let (publisher, subscriber) = (try await broker.client(), try await broker.client())
        let fixes = try await subscriber.subscribe("safewalk/+/fix", qos: .atLeastOnce)
        let everything = try await subscriber.subscribe("safewalk/#", qos: .atLeastOnce)
        for topic in ["safewalk/alice/fix", "safewalk/bob/reply", "safewalk/bob/fix", "other/alice/fix"] {
            try await publisher.publish(topic, string: topic)
        }
        #expect(try await fixes.first(2).map(\.topic) == ["safewalk/alice/fix", "safewalk/bob/fix"])
        #expect(
            try await everything.first(3).map(\.topic) == [
                "safewalk/alice/fix", "safewalk/bob/reply", "safewalk/bob/fix",
            ])
        await publisher.shutdown(); await subscriber.shutdown(); await broker.shutdown()
    }

    @Test(arguments: [0, 1, 1024, 256 * 1024])
    func binaryPayloadsSurviveByteForByte(size: Int) async throws {
        let broker = try await MosquittoBroker.start()
        let (publisher, subscriber) = (try await broker.client(), try await broker.client())
        let messages = try await subscriber.subscribe("rt/binary", qos: .atLeastOnce)
        var generator = SystemRandomNumberGenerator()
        let payload = Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try await publisher.publish("rt/binary", payload: payload)
        #expect(try await messages.first(1).first?.payload == payload)
        await publisher.shutdown(); await subscriber.shutdown(); await broker.shutdown()
    }
}
