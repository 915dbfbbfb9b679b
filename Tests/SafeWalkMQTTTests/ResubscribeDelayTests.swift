import Testing

@testable import SafeWalkMQTT

/// How long the client waits before asking again for a refused re-subscription.
@Suite struct ResubscribeDelayTests {
    @Test func startsAtTheMinimumDoublesAndStopsAtTheMaximum() {
        let delays = (1...6).map { MQTTClient.resubscribeDelay(afterRefusals: $0, min: 1, max: 8) }
        #expect(delays == [1, 2, 4, 8, 8, 8])
        #expect(MQTTClient.resubscribeDelay(afterRefusals: 1_000_000, min: 3, max: 60) == 60)
        #expect(MQTTClient.resubscribeDelay(afterRefusals: 0, min: 2, max: 8) == 2)
    }
}
