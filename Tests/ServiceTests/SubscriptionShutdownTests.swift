import Logging
import SafeWalkMQTT
import SafeWalkService
import ServiceLifecycle
import Synchronization
import TestSupport
import Testing

/// `forEachUntilShutdown` ends its loop at the service group's graceful shutdown, after handing
/// over every message that had already arrived (at QoS 1 the broker has its acknowledgement).
@Suite struct SubscriptionShutdownTests {
    /// Reads one subscription; the first message is held until the test opens the gate, so the
    /// others are still waiting in the subscription when the shutdown comes.
    private final class Seen: Sendable {
        let messages = Mutex<[String]>([])
    }

    private struct Reader: Service {
        let subscription: MQTTSubscription
        let batches: Bool
        let seen: Seen
        let gate: AsyncStream<Void>

        func run() async throws {
            if batches {
                await subscription.forEachBatchUntilShutdown { batch in await take(batch) }
            } else {
                await subscription.forEachUntilShutdown { message in await take([message]) }
            }
        }

        private func take(_ messages: [MQTTMessage]) async {
            let first = seen.messages.withLock { seen in
                defer { seen += messages.compactMap(\.string) }
                return seen.isEmpty
            }
            if first { for await _ in gate { break } }
        }
    }

    @Test(arguments: [false, true])
    func aGracefulShutdownHandsOverWhatArrivedThenEndsTheLoop(batches: Bool) async throws {
        let bus = InMemoryMessageBus()
        let subscription = try await bus.subscribe("t", qos: .atLeastOnce)
        let seen = Seen()
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        var logger = Logger(label: "test.shutdown")
        logger.logLevel = .critical
        let group = ServiceGroup(
            services: [Reader(subscription: subscription, batches: batches, seen: seen, gate: gate)],
            logger: logger)
        let running = Task { try await group.run() }
        try await bus.publish("t", string: "a")
        try await eventually("the first message taken and held") { seen.messages.withLock { $0 } == ["a"] }
        try await bus.publish("t", string: "b")
        try await bus.publish("t", string: "c")
        await group.triggerGracefulShutdown()
        open.yield()
        try await withTimeout(10, "the loop ended") { try await running.value }
        #expect(seen.messages.withLock { $0 } == ["a", "b", "c"])
    }
}
