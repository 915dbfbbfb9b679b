import Foundation
import Logging
import SafeWalkMQTT
import Synchronization
import TestSupport
import Testing

@Suite("Reconnection after the broker restarts", .holdsResources)
struct ReconnectTests {
    @Test func persistentSessionKeepsEveryAcknowledgedMessageAcrossABrokerRestart() async throws {
        let broker = try await MosquittoBroker.start(persistence: true)
        let subscriber = try await broker.client("durable-subscriber", cleanSession: false)
        let publisher = try await broker.client("durable-publisher", cleanSession: false)
        let messages = try await subscriber.subscribe("rt/durable", qos: .atLeastOnce)
        try await publisher.publish("rt/durable", string: "before")
        #expect(try await messages.first(1).map(\.string) == ["before"])

        await broker.stop()
        // Published while the broker is down: each call waits for its PUBACK after reconnection.
        let sends = Task {
            for index in 0..<20 { try await publisher.publish("rt/durable", string: "during-\(index)") }
        }
        try await broker.start()
        try await withTimeout(30, "publishes acknowledged after restart") { try await sends.value }

        try await publisher.publish("rt/durable", string: "after")
        // QoS 1 is at-least-once: a message in flight at the restart may come twice (consumers
        // de-duplicate by id). None may be missing, and first arrivals keep their order.
        let received = try await withTimeout(30, "every message up to 'after'") {
            var seen: [String] = []
            for await message in messages {
                guard let text = message.string else { continue }
                if !seen.contains(text) { seen.append(text) }
                if text == "after" { break }
            }
            return seen
        }
        #expect(received == (0..<20).map { "during-\($0)" } + ["after"])
        #expect(subscriber.connectionCounts.losses >= 1)
        await publisher.shutdown(); await subscriber.shutdown(); await broker.shutdown()
    }

    @Test func subscriptionsAreRestoredWhenTheBrokerForgotTheSession() async throws {
        let broker = try await MosquittoBroker.start(persistence: false)
        let subscriber = try await broker.client("forgotten-subscriber", cleanSession: false)
        let messages = try await subscriber.subscribe("safewalk/+/escalation", qos: .atLeastOnce)
        await broker.kill()
        try await broker.start()
        let publisher = try await broker.client()
        // The subscriber reconnects on its own schedule; probe until its re-subscription is live.
        let delivered = Mutex(false)
        let reader = Task {
            for await message in messages where message.string == "probe" {
                delivered.withLock { $0 = true }
                break
            }
        }
        try await eventually("re-subscription after restart", within: 30) {
            try await publisher.publish("safewalk/alice/escalation", string: "probe")
            return delivered.withLock { $0 }
        }
        reader.cancel()
        #expect(subscriber.connectionCounts.connects >= 2)
        await publisher.shutdown(); await subscriber.shutdown(); await broker.shutdown()
    }
}

@Suite("A persistent session's queue", .holdsResources)
struct QueuedWhileAwayTests {
    @Test func messagesQueuedWhileAwayAreKeptUntilTheServiceSubscribesAgain() async throws {
        let broker = try await MosquittoBroker.start()
        let first = try await broker.client("returning-service", cleanSession: false)
        _ = try await first.subscribe("rt/queued", qos: .atLeastOnce)
        await first.shutdown()

        let publisher = try await broker.client()
        for index in 0..<5 { try await publisher.publish("rt/queued", string: "\(index)") }

        // The broker hands the queue over right after CONNACK, before anyone subscribed.
        let again = try await broker.client("returning-service", cleanSession: false)
        let messages = try await again.subscribe("rt/queued", qos: .atLeastOnce)
        #expect(try await messages.first(5).map(\.string) == ["0", "1", "2", "3", "4"])
        await publisher.shutdown(); await again.shutdown(); await broker.shutdown()
    }
}

@Suite("Subscriptions outlive a clean shutdown", .holdsResources)
struct SessionSubscriptionTests {
    @Test func aServiceThatStopsCleanlyStillGetsWhatWasPublishedWhileItWasDown() async throws {
        let broker = try await MosquittoBroker.start()
        let first = try await broker.client("stopping-service", cleanSession: false)
        let messages = try await first.subscribe("rt/while-down", qos: .atLeastOnce)
        let reader = Task { for await _ in messages {} }
        reader.cancel()  // the consumer loop ends, as every loop does on graceful shutdown
        _ = await reader.value
        await first.shutdown()

        let publisher = try await broker.client()
        try await publisher.publish("rt/while-down", string: "sent while down")
        let again = try await broker.client("stopping-service", cleanSession: false)
        let resumed = try await again.subscribe("rt/while-down", qos: .atLeastOnce)
        #expect(try await resumed.first(1).map(\.string) == ["sent while down"])
        await publisher.shutdown(); await again.shutdown(); await broker.shutdown()
    }

    @Test func unsubscribeRemovesTheFilterFromTheSession() async throws {
        let broker = try await MosquittoBroker.start()
        let client = try await broker.client("unsubscribing", cleanSession: false)
        _ = try await client.subscribe("rt/gone", qos: .atLeastOnce)
        let probe = try await client.subscribe("rt/probe", qos: .atLeastOnce)
        await client.unsubscribe("rt/gone")
        let publisher = try await broker.client()
        try await publisher.publish("rt/gone", string: "nobody wants this")
        try await publisher.publish("rt/probe", string: "probe")
        #expect(try await probe.first(1).map(\.string) == ["probe"])
        // Had the broker kept the filter, the message would wait for a later subscription.
        let late = try await client.subscribe("rt/gone", qos: .atLeastOnce)
        try await publisher.publish("rt/probe", string: "second probe")
        #expect(try await probe.first(1).map(\.string) == ["second probe"])
        #expect(await late.drainNow().isEmpty)
        await publisher.shutdown(); await client.shutdown(); await broker.shutdown()
    }
}

extension MQTTSubscription {
    /// What arrived so far, without waiting.
    func drainNow() async -> [MQTTMessage] {
        cancel()
        var all: [MQTTMessage] = []
        for await message in self { all.append(message) }
        return all
    }
}

@Suite("Starting before the broker", .holdsResources)
struct EarlyStartTests {
    @Test func aClientStartedBeforeItsBrokerConnectsWhenTheBrokerAppears() async throws {
        let broker = try MosquittoBroker()  // configured, not started: nothing listens yet
        var logger = Logger(label: "early")
        logger.logLevel = .critical
        let client = try MQTTClient(
            configuration: MQTTConfiguration(port: broker.port, clientID: "early-bird", reconnectDelayMax: 1),
            logger: logger)
        let connecting = Task { try await client.connect() }
        // Not waiting for a timer under test: only letting the first attempt meet a closed port.
        try await Task.sleep(for: .milliseconds(300))
        #expect(!client.isConnected)
        try await broker.start()
        try await withTimeout(15, "connect once the broker is up") { try await connecting.value }
        #expect(client.isConnected)
        let messages = try await client.subscribe("rt/early", qos: .atLeastOnce)
        try await client.publish("rt/early", string: "hello")
        #expect(try await messages.first(1).map(\.string) == ["hello"])
        await client.shutdown(); await broker.shutdown()
    }
}
