import Foundation
import TestSupport
import Testing

@testable import SafeWalkMQTT

@Suite("Last Will, reconnection and slow consumers", .holdsResources)
struct SessionTests {
    @Test func lastWillIsPublishedWhenAClientDiesWithoutDisconnecting() async throws {
        let broker = try await MosquittoBroker.start()
        let watcher = try await broker.client()
        let presence = try await watcher.subscribe("safewalk/alice/presence", qos: .atLeastOnce)
        let will = MQTTMessage(topic: "safewalk/alice/presence", string: "offline", retain: true)
        let phone = try await broker.client("alice-phone", lastWill: will)
        try await phone.publish("safewalk/alice/presence", string: "online", retain: true)
        #expect(try await presence.first(1).map(\.string) == ["online"])
        await phone.abandonConnectionForTesting()
        #expect(try await presence.first(1).map(\.string) == ["offline"])
        await watcher.shutdown(); await broker.shutdown()
    }

    @Test func cleanShutdownDoesNotPublishTheLastWill() async throws {
        let broker = try await MosquittoBroker.start()
        let watcher = try await broker.client()
        let presence = try await watcher.subscribe("safewalk/bob/presence", qos: .atLeastOnce)
        let will = MQTTMessage(topic: "safewalk/bob/presence", string: "offline")
        let phone = try await broker.client("bob-phone", lastWill: will)
        await phone.shutdown()
        // The marker is published after the shutdown: if the will had fired it would come first.
        let marker = try await broker.client()
        try await marker.publish("safewalk/bob/presence", string: "marker")
        #expect(try await presence.first(1).map(\.string) == ["marker"])
        await watcher.shutdown(); await marker.shutdown(); await broker.shutdown()
    }

    /// A subscription the session kept (a crash before the unsubscribe) for messages no one here
    /// wants any more: held until something subscribes, unless their filter is discarded.
    @Test func unclaimedMessagesOfADiscardedFilterAreDroppedNotHeld() async throws {
        let broker = try await MosquittoBroker.start()
        let first = try await broker.client("forgetful", cleanSession: false)
        _ = try await first.subscribe("rt/left/behind", qos: .atLeastOnce)
        await first.shutdown()
        let publisher = try await broker.client()
        try await publisher.publish("rt/left/behind", string: "queued while down")

        let again = try await broker.client("forgetful", cleanSession: false)
        let probe = try await again.subscribe("rt/probe", qos: .atLeastOnce)
        try await publisher.publish("rt/probe", string: "after the queued one")
        #expect(try await probe.first(1).map(\.string) == ["after the queued one"])
        #expect(again.state.withLock { $0.unclaimed.map(\.string) } == ["queued while down"])

        again.discardUnclaimed(matching: "rt/left/+")
        #expect(again.state.withLock { $0.unclaimed.isEmpty })
        try await publisher.publish("rt/left/behind", string: "live")
        try await publisher.publish("rt/probe", string: "after the live one")
        #expect(try await probe.first(1).map(\.string) == ["after the live one"])
        #expect(again.state.withLock { $0.unclaimed.isEmpty })
        await publisher.shutdown(); await again.shutdown(); await broker.shutdown()
    }

    @Test func aSlowConsumerLosesNothing() async throws {
        let broker = try await MosquittoBroker.start()
        let (publisher, subscriber) = (try await broker.client(), try await broker.client())
        let messages = try await subscriber.subscribe("rt/burst", qos: .atMostOnce)
        let count = 20_000
        for index in 0..<count {
            try await publisher.publish("rt/burst", string: "\(index)", qos: .atMostOnce)
        }
        // Only now does the consumer start reading: everything waited in its buffer.
        let received = try await messages.first(count, within: 30)
        #expect(received.count == count)
        #expect(received.last?.string == "\(count - 1)")
        #expect(messages.highWaterMark > 0)
        await publisher.shutdown(); await subscriber.shutdown(); await broker.shutdown()
    }
}
