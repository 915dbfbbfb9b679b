import Foundation
import Logging
import Synchronization
import TestSupport
import Testing

@testable import SafeWalkMQTT
@testable import SafeWalkService

/// Each subscription's deepest backlog reaches the observer (and so the Prometheus gauge
/// `safewalk_mqtt_subscription_buffer_high_water_mark{service,filter}`) once per new maximum.
@Suite("Subscription buffer high-water mark", .holdsResources)
struct HighWaterMarkTests {
    final class Recorder: MQTTObserver {
        let marks = Mutex<[String: [Int]]>([:])
        func didReceive(topic: String, bytes: Int) {}
        func didPublish(topic: String, qos: QoS) {}
        func didConnect(sessionPresent: Bool) {}
        func didLoseConnection() {}
        func didSubscribe(filter: String) { marks.withLock { $0[filter, default: []].append(0) } }
        func highWaterMarkRose(filter: String, to depth: Int) {
            marks.withLock { $0[filter, default: []].append(depth) }
        }
        func seen(_ filter: String) -> [Int] { marks.withLock { $0[filter] ?? [] } }
    }

    @Test func theBufferReportsOnlyNewMaxima() async {
        let reported = Mutex<[Int]>([])
        let buffer = MessageBuffer(onHighWaterMark: { depth in reported.withLock { $0.append(depth) } })
        for index in 0..<3 { buffer.append(MQTTMessage(topic: "t", string: "\(index)")) }
        #expect(reported.withLock { $0 } == [1, 2, 3])
        #expect(await buffer.nextBatch()?.count == 3)
        // Draining does not lower the mark, and a shallower backlog does not report again.
        for index in 0..<2 { buffer.append(MQTTMessage(topic: "t", string: "\(index)")) }
        #expect(reported.withLock { $0 } == [1, 2, 3])
        #expect(buffer.highWaterMark == 3)
        buffer.append(MQTTMessage(topic: "t", string: "deeper"))
        buffer.append(MQTTMessage(topic: "t", string: "deeper still"))
        #expect(reported.withLock { $0 } == [1, 2, 3, 4])
        buffer.finish()
    }

    @Test func aLaggingSubscriberRaisesItsMarkThroughTheClient() async throws {
        let broker = try await MosquittoBroker.start()
        let recorder = Recorder()
        var logger = Logger(label: "test.high-water")
        logger.logLevel = .warning
        let client = try MQTTClient(
            configuration: MQTTConfiguration(port: broker.port, clientID: "high-water", observer: recorder),
            logger: logger)
        try await client.connect()
        let subscription = try await client.subscribe("hwm/#", qos: .atLeastOnce)
        #expect(recorder.seen("hwm/#") == [0])
        let publisher = try await broker.client()
        for index in 0..<5 { try await publisher.publish(MQTTMessage(topic: "hwm/\(index)", string: "\(index)")) }
        // Nobody has taken anything yet, so the backlog is all five.
        try await eventually("the backlog to reach 5", within: 10) { recorder.seen("hwm/#").last == 5 }
        #expect(recorder.seen("hwm/#") == [0, 1, 2, 3, 4, 5])
        #expect(subscription.highWaterMark == 5)
        #expect(try await subscription.first(5).count == 5)
        await publisher.shutdown(); await client.shutdown(); await broker.shutdown()
    }

    @Test func theGaugeKeepsTheLargestDepthPerFilter() {
        let metrics = BrokerMetrics(service: .notifier, prefix: "safewalk")
        #expect(metrics.highWaterMark(of: "a") == nil)
        metrics.didSubscribe(filter: "a")
        #expect(metrics.highWaterMark(of: "a") == 0)
        metrics.highWaterMarkRose(filter: "a", to: 4)
        metrics.didSubscribe(filter: "a")  // a second subscription on the filter never lowers it
        metrics.highWaterMarkRose(filter: "a", to: 2)
        #expect(metrics.highWaterMark(of: "a") == 4)
        metrics.didSubscribe(filter: "b")
        #expect(metrics.highWaterMark(of: "b") == 0)
    }
}
