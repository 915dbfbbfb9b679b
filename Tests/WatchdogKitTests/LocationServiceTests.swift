import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing
import WatchdogKit

/// `"location": false` and `background` through the service: kept across a restart (manual clock,
/// real SQLite), and on the real executable and broker.
@Suite(.timeLimit(.minutes(2))) struct LocationServiceTests {
    let alice = try! WalkerID("alice")
    let bob = try! WalkerID("bob")

    /// noMovement 30 s: each walker would escalate it long before noReply if the restart had
    /// forgotten that alice's location is off and bob's app is in the background.
    @Test func aRestartKeepsLocationOffAndThePause() async throws {
        let existing = try ServiceHarness.freshStore()
        let thresholds = SafetyThresholds(
            checkInInterval: 60, noReplyAfter: 120, noMovementAfter: 30, offlineGrace: 600)
        let first = try await ServiceHarness(store: existing, thresholds: thresholds)
        let aliceStatus = try await first.bus.subscribe("safewalk/alice/status", qos: .atLeastOnce)
        let bobStatus = try await first.bus.subscribe("safewalk/bob/status", qos: .atLeastOnce)
        try await first.send(.action(alice), Action(id: "a1", kind: .start, location: false))
        #expect(try await aliceStatus.first(1)[0].decoded(WatchStatus.self).location == .off)
        try await first.send(.action(bob), Action(id: "b1", kind: .start))
        #expect(try await bobStatus.first(1)[0].decoded(WatchStatus.self).location == .on)
        try await first.bus.publish("safewalk/bob/presence", payload: Presence.background.payload)
        #expect(try await bobStatus.first(1)[0].decoded(WatchStatus.self).location == .paused)
        await first.stop()

        let second = try await ServiceHarness(now: 1_000, store: existing, thresholds: thresholds)
        let escalations = try await second.bus.subscribe("safewalk/+/escalation", qos: .atLeastOnce)
        second.clock.advance(to: 1_120)
        let events = try await escalations.first(2).map { try $0.decoded(EscalationEvent.self) }
        #expect(Set(events.map(\.walker)) == [alice, bob])
        #expect(events.allSatisfy { $0.reason == .noReply && $0.at == 1_120 })
        await second.cleanUp()
    }

    /// The real executable on a real broker: alice starts with `"location": false` (the raw JSON
    /// a device sends) and sends no fix. bob, started beside her with location on, proves the 1 s
    /// noMovement is live; alice's first escalation is noReply at the end of its 3 s window.
    @Test func aWatchWithoutLocationEscalatesNoReplyAndNeverNoMovement() async throws {
        let broker = try await MosquittoBroker.start()
        let w = try await WatchdogProcess(
            broker: broker,
            thresholds: [
                "SAFEWALK_CHECKIN_INTERVAL": "600", "SAFEWALK_NO_REPLY_AFTER": "3",
                "SAFEWALK_NO_MOVEMENT_AFTER": "1", "SAFEWALK_OFFLINE_GRACE": "600",
            ])
        try await w.start()
        let escalations = try await w.subscribe("safewalk/+/escalation")
        let statuses = try await w.subscribe("safewalk/alice/status")
        let sent = now()
        try await w.client.publish(
            "safewalk/alice/action", payload: Data(#"{"v":1,"action":"start","id":"l1","location":false}"#.utf8))
        let status = try await statuses.first(1)[0]
        #expect(String(decoding: status.payload, as: UTF8.self).contains(#""location":"off""#))
        try await w.act("bob", .start)
        let events = try await escalations.first(2, within: 15).map { try $0.decoded(EscalationEvent.self) }
        let aliceEvents = events.filter { $0.walker == alice }
        #expect(events.first { $0.walker == bob }?.reason == .noMovement)
        #expect(aliceEvents.map(\.reason) == [.noReply])
        #expect((aliceEvents.first?.at ?? 0) >= sent + 3)
        await w.shutdown()
    }
}
