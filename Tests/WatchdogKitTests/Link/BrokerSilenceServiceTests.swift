import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing
import WatchdogKit

/// The real service on an in-memory bus cut as a network partition cuts a client off its broker
/// (``InMemoryMessageBus/cut()``), a real SQLite file and a manual clock: while the broker is
/// silent no deadline fires, and when it is heard from again every clock has moved on by the
/// silence (``BrokerLink``, docs/SCALING.md, "A network partition").
@Suite struct BrokerSilenceServiceTests {
    static let link = BrokerLink.Settings(heartbeat: 1, slack: 2, cutAfter: 5)

    func escalations(_ h: ServiceHarness, _ walker: String) -> [MQTTMessage] {
        h.bus.published(matching: "safewalk/\(walker)/escalation")
    }

    /// Sends `walker`'s action and waits for its answer: the loop has handled everything before.
    func barrier(_ h: ServiceHarness, _ walker: String, _ kind: Action.Kind = .imSafe) async throws {
        let id = UUID().uuidString
        try await h.act(walker, kind, id: id)
        try await eventually("\(walker)'s answer") {
            h.bus.published(matching: "safewalk/\(walker)/action/result").contains {
                (try? $0.decoded(ActionResult.self).id) == id
            }
        }
    }

    func heartbeats(_ h: ServiceHarness) -> Int {
        h.bus.published(matching: "safewalk/_heartbeat/watchdog").count
    }

    /// Moves the clock to `time` a second at a time, the broker answering each heartbeat: time
    /// passing with the link alive. (One jump of the manual clock is a silence: nothing is heard
    /// in between.) It never waits for the loop: a loop left many virtual seconds behind (a busy
    /// test run) reads the acknowledgements a second apart, and is not a silence. (When the
    /// loop took only the latest acknowledgement, that lag was credited once in 498 runs.)
    func pass(_ h: ServiceHarness, to time: EpochSeconds) async throws {
        while h.clock.now() < time {
            let before = heartbeats(h)
            h.clock.advance(by: 1)
            try await eventually("a heartbeat at \(h.clock.now())") { heartbeats(h) > before }
        }
    }

    @Test func aSilentWalkerWhoseDeadlineFellInTheCutEscalatesOnlyAfterTheCreditedSilence() async throws {
        let h = try await ServiceHarness(now: 1_000, brokerLink: Self.link)
        try await barrier(h, "alice", .start)  // noReply at 1,120 (ServiceHarness.thresholds)
        try await barrier(h, "bob", .start)
        try await eventually("a heartbeat acknowledged") { heartbeats(h) >= 1 }

        h.bus.cut()
        h.clock.advance(to: 1_200)  // alice's and bob's deadlines pass while nothing is heard
        // Everything the watchdog publishes now waits on the cut, escalations included.
        try await Task.sleep(for: .milliseconds(200))
        h.bus.heal()
        // The heartbeat held by the cut is acknowledged at 1,200: 200 s of silence credited, so
        // alice's noReply deadline is 1,320.
        try await eventually("the silence credited: a heartbeat after the cut") { heartbeats(h) >= 2 }
        try await barrier(h, "bob")
        #expect(escalations(h, "alice").isEmpty, "alice's deadline fell in the cut: moved on by it")

        try await pass(h, to: 1_318)
        try await barrier(h, "bob")
        #expect(escalations(h, "alice").isEmpty)

        try await pass(h, to: 1_322)
        try await eventually("alice escalates once her moved deadline passes") { escalations(h, "alice").count == 1 }
        #expect(try escalations(h, "alice")[0].decoded(EscalationEvent.self).reason == .noReply)
        await h.cleanUp()
    }

    @Test func withoutTheLinkRuleTheSameCutEscalatesEveryone() async throws {
        let h = try await ServiceHarness(now: 1_000)
        try await barrier(h, "alice", .start)
        try await barrier(h, "bob", .start)
        h.bus.cut()
        h.clock.advance(to: 1_200)
        try await Task.sleep(for: .milliseconds(200))
        h.bus.heal()
        try await eventually("both escalated in the cut") {
            escalations(h, "alice").count == 1 && escalations(h, "bob").count == 1
        }
        await h.cleanUp()
    }

    @Test func aShortQuietMomentIsNotACut() async throws {
        let h = try await ServiceHarness(now: 1_000, brokerLink: Self.link)
        try await barrier(h, "alice", .start)
        try await eventually("a heartbeat acknowledged") { heartbeats(h) >= 1 }
        try await pass(h, to: 1_118)  // heard from every second on the way: nothing credited
        try await barrier(h, "bob")
        #expect(escalations(h, "alice").isEmpty)
        try await pass(h, to: 1_122)
        try await eventually("alice escalates on time") { escalations(h, "alice").count == 1 }
        await h.cleanUp()
    }
}
