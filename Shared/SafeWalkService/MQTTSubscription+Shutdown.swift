import SafeWalkMQTT
import ServiceLifecycle

extension MQTTSubscription {
    /// Hands each message to `body` until the service group shuts down gracefully: the shutdown
    /// ends the subscription, which hands over what already arrived (at QoS 1 libmosquitto has
    /// acknowledged it) and then ends the loop.
    ///
    /// ServiceLifecycle's `cancelOnGracefulShutdown()` ends a loop the same way through a merged
    /// sequence whose machinery runs for every element: 4 % of location-ingest's CPU at walking
    /// pace, and 11,000 of companion-chat's 87,000 instructions per fix (issue 22,
    /// BENCHMARKS.md). This registers one handler for the whole loop instead.
    public func forEachUntilShutdown(_ body: (MQTTMessage) async -> Void) async {
        await withGracefulShutdownHandler {
            for await message in self { await body(message) }
        } onGracefulShutdown: {
            cancel()
        }
    }

    /// ``forEachUntilShutdown(_:)`` a batch at a time: everything that arrived since the last one.
    public func forEachBatchUntilShutdown(_ body: ([MQTTMessage]) async -> Void) async {
        await withGracefulShutdownHandler {
            for await batch in batches { await body(batch) }
        } onGracefulShutdown: {
            cancel()
        }
    }
}
