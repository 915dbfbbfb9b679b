import Foundation
import TestSupport
import Testing

@testable import SafeWalkMQTT

@Suite("Publishing a batch (publish(all:)) against a real mosquitto", .holdsResources)
struct PublishAllTests {
    @Test func aBatchArrivesInOrderWithEveryMessageAcknowledged() async throws {
        let broker = try await MosquittoBroker.start()
        let (publisher, subscriber) = (try await broker.client(), try await broker.client())
        let messages = try await subscriber.subscribe("batch/order", qos: .atLeastOnce)
        // More than the client's in-flight window (100): the rest wait in libmosquitto's queue.
        let batch = (0..<300).map { MQTTMessage(topic: "batch/order", string: "\($0)", qos: .atLeastOnce) }
        let outcomes = await publisher.publish(all: batch)
        #expect(outcomes.count == 300)
        #expect(outcomes.allSatisfy { $0 == nil })
        #expect(try await messages.first(300).map(\.string) == (0..<300).map { "\($0)" })
        await publisher.shutdown(); await subscriber.shutdown(); await broker.shutdown()
    }

    /// The reason for the batch: one publish per task wrote each packet as a TCP segment of its
    /// own (TCP_NODELAY); a batch is written corked and leaves in a few full segments.
    @Test func aBatchLeavesTheSocketInAFewSegmentsWhereSinglePublishesTakeOneEach() async throws {
        let broker = try await MosquittoBroker.start()
        let publisher = try await broker.client()
        let payload = String(repeating: "x", count: 100)
        let messages = (0..<90).map { _ in MQTTMessage(topic: "batch/segments", string: payload, qos: .atLeastOnce) }

        let beforeSingles = try publisher.dataSegmentsSent()
        for message in messages { try await publisher.publish(message) }
        let singles = try publisher.dataSegmentsSent() - beforeSingles

        // libmosquitto writes from the publishing thread only while its network thread is not
        // inside a callback; when it is (it resumes the last acknowledged publish from one, and
        // under load it can be descheduled there), the packets wait for the network thread and
        // leave one by one after the cork is out. So each try starts once the network thread is
        // out of its callbacks, and the batch is tried up to three times. Measured here: corked,
        // 1–5 segments on an idle machine and 19 under the full suite's load (the kernel sends
        // corked data after 200 ms); without the cork 40 idle, each publish then being its own
        // segment unless the socket backs up.
        var batches: [UInt32] = []
        for _ in 0..<3 {
            try await eventually("the network thread out of its callbacks") {
                publisher.callbacksRunning.load(ordering: .acquiring) == 0
            }
            let before = try publisher.dataSegmentsSent()
            let outcomes = await publisher.publish(all: messages)
            #expect(outcomes.allSatisfy { $0 == nil })
            batches.append(try publisher.dataSegmentsSent() - before)
            if batches.last! <= 25 { break }
        }

        #expect(singles >= 90, "one segment per publish at least: \(singles)")
        #expect(batches.contains { $0 <= 25 }, "segments for a batch of 90: \(batches) (single publishes: \(singles))")
        await publisher.shutdown(); await broker.shutdown()
    }

    @Test func aBatchMadeWhileTheBrokerIsDownGoesOutOnReconnect() async throws {
        let broker = try await MosquittoBroker.start(persistence: true)
        let subscriber = try await broker.client("batch-subscriber", cleanSession: false)
        let publisher = try await broker.client("batch-publisher", cleanSession: false)
        let messages = try await subscriber.subscribe("batch/offline", qos: .atLeastOnce)
        await broker.stop()
        let batch = (0..<50).map { MQTTMessage(topic: "batch/offline", string: "\($0)", qos: .atLeastOnce) }
        let sending = Task { await publisher.publish(all: batch) }
        try await broker.start()
        let outcomes = try await withTimeout(30, "the batch acknowledged after the restart") { await sending.value }
        #expect(outcomes.allSatisfy { $0 == nil })
        let received = Set(try await messages.first(50, within: 30).compactMap(\.string))
        #expect(received == Set((0..<50).map { "\($0)" }))
        await publisher.shutdown(); await subscriber.shutdown(); await broker.shutdown()
    }

    @Test func cancellingABatchThatWaitsForTheBrokerSettlesEveryMessage() async throws {
        let broker = try await MosquittoBroker.start()
        let publisher = try await broker.client()
        await broker.stop()
        let batch = (0..<10).map { MQTTMessage(topic: "batch/cancel", string: "\($0)", qos: .atLeastOnce) }
        let sending = Task { await publisher.publish(all: batch) }
        try await eventually("the batch parked until the broker is back", within: 10) {
            publisher.state.withLock { $0.offlinePublishes.count } == 10
        }
        sending.cancel()
        let outcomes = try await withTimeout(10, "the cancelled batch settled") { await sending.value }
        #expect(outcomes.count == 10)
        #expect(outcomes.allSatisfy { $0 is CancellationError })
        #expect(publisher.state.withLock { $0.offlinePublishes.isEmpty })
        await publisher.shutdown(); await broker.shutdown()
    }

    @Test func cancellingASinglePublishThatWaitsForTheBrokerEndsItAndLeavesNoWaiter() async throws {
        let broker = try await MosquittoBroker.start()
        let publisher = try await broker.client()
        await broker.stop()
        let sending = Task { try await publisher.publish("batch/cancel-one", string: "one") }
        try await eventually("the publish parked until the broker is back", within: 10) {
            publisher.state.withLock { $0.offlinePublishes.count } == 1
        }
        sending.cancel()
        let outcome = try await withTimeout(10, "the cancelled publish") { await sending.result }
        #expect(throws: CancellationError.self) { try outcome.get() }
        #expect(publisher.state.withLock { $0.offlinePublishes.isEmpty })
        await publisher.shutdown(); await broker.shutdown()
    }

    @Test func aBatchAfterShutdownFailsEveryMessage() async throws {
        let broker = try await MosquittoBroker.start()
        let publisher = try await broker.client()
        await publisher.shutdown()
        let batch = (0..<3).map { MQTTMessage(topic: "batch/closed", string: "\($0)", qos: .atLeastOnce) }
        let outcomes = await publisher.publish(all: batch)
        #expect(outcomes.allSatisfy { ($0 as? MQTTError) == .shutDown })
        await broker.shutdown()
    }
}
