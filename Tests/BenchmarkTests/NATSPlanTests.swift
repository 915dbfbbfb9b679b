import Testing

@testable import e2e_load_bench

/// A NATS fault case's plan: long enough to reply across JetStream's leader election, with the
/// silences falling due as long after they start as in the same plan on Mosquitto.
@Suite struct NATSPlanTests {
    static let quick = LoadPlan(
        walkers: 300, silent: 100, connections: 4, ramp: 5, window: 45, silenceStart: 3, silenceSpan: 25,
        drain: 120, thresholds: Thresholds(checkIn: 5, noReply: 10, noMovement: 60))

    @Test func theReplyWindowGrowsToThirtySecondsAndTheWindowByAsMuch() {
        let nats = Self.quick.forNATS
        #expect(nats.thresholds.noReply == 30)
        #expect(nats.window == 65)
        #expect(nats.thresholds.checkIn == 5 && nats.silenceSpan == 25 && nats.walkers == 300)
        #expect((0..<300).map(nats.silenceOffset) == (0..<300).map(Self.quick.silenceOffset))
    }

    @Test func aLongerReplyWindowIsKept() {
        var plan = Self.quick
        plan.thresholds.noReply = 45
        #expect(plan.forNATS.thresholds.noReply == 45 && plan.forNATS.window == 45)
    }

    @Test func everyNATSCaseIsMarkedSoItGetsThatPlan() {
        #expect(Faults.clusterQuick.onNATS && Faults.clusterPartition.onNATS)
        #expect(Faults.all(window: 90).filter(\.onNATS).map(\.name) == ["nats-node-kill", "nats-partition"])
        #expect(!Faults.quick.onNATS)
    }
}
