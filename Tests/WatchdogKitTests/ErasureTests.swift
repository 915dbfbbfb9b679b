import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing
import WatchdogKit

/// The watchdog's part of deleting an account: refused while an incident is open, otherwise the
/// watch, its timers, its rows and its retained status all go; asking again is fine.
@Suite(.holdsResources) struct ErasureTests {
    let alice = WalkerID(validating: "alice")!

    @Test func onlyAnOpenIncidentDuressOrHeldSwitchRefusesAnErasure() {
        #expect(WatchErasure.refusal(nil) == nil)
        let watching = Watch(walker: alice, timers: WatchTimers(watchedSince: 1_000))
        #expect(WatchErasure.refusal(watching) == nil)
        var alert = watching
        alert.incident = Incident(reason: .noReply, level: .amber, at: 1_120)
        #expect(WatchErasure.refusal(alert) == .openIncident)
        var duress = watching
        duress.duress = Incident(reason: .panic, level: .red, at: 1_100)
        #expect(WatchErasure.refusal(duress) == .openIncident)
        var holding = watching
        holding.hold = HoldSwitch(level: .red, lastBeatAt: 1_100)
        #expect(WatchErasure.refusal(holding) == .openIncident)
    }

    @Test func aWatchingWalkerIsErasedAndNothingFiresForThemLater() async throws {
        let h = try await ServiceHarness()
        let statuses = try await h.bus.subscribe("safewalk/+/status", qos: .atLeastOnce)
        let prompts = try await h.bus.subscribe("safewalk/+/prompt", qos: .atLeastOnce)
        let escalations = try await h.bus.subscribe("safewalk/+/escalation", qos: .atLeastOnce)
        try await h.act("alice", .start)
        try await h.act("bob", .start)
        _ = try await statuses.first(2)

        #expect(await h.service.erase(alice) == nil)
        #expect(try h.store.loadWatches().map(\.walker.rawValue) == ["bob"])
        try await eventually("alice's status cleared") {
            h.bus.published(matching: "safewalk/alice/status").last?.payload.isEmpty == true
        }
        try await eventually("the clearing row acknowledged and gone") { try h.store.outboxCount(for: alice) == 0 }
        let retained = try await h.bus.subscribe("safewalk/+/status", qos: .atLeastOnce).first(1)
        #expect(retained.map(\.topic) == ["safewalk/bob/status"], "alice's retained status is gone")

        // Bob's prompt and escalation prove the deadlines ran; alice's never fire.
        h.clock.advance(to: 1_060)
        #expect(try await prompts.first(1).map(\.topic) == ["safewalk/bob/prompt"])
        h.clock.advance(to: 1_200)
        #expect(try await escalations.first(1).map(\.topic) == ["safewalk/bob/escalation"])
        #expect(h.bus.published(matching: "safewalk/alice/prompt").isEmpty)
        #expect(h.bus.published(matching: "safewalk/alice/escalation").isEmpty)
        #expect(try h.store.loadWatches().map(\.walker.rawValue) == ["bob"])

        #expect(await h.service.erase(alice) == nil, "asking again is fine")
        await h.cleanUp()
    }

    @Test func aWalkerWithAnOpenIncidentIsRefusedAndKeepsEverything() async throws {
        let h = try await ServiceHarness()
        let escalations = try await h.bus.subscribe("safewalk/alice/escalation", qos: .atLeastOnce)
        try await h.act("alice", .start)
        try await h.act("alice", .needHelp)
        _ = try await escalations.first(1)
        try await eventually("escalation marked sent") { try h.store.escalationCount().unsent == 0 }
        // The alert status goes out in the retained lane, which nothing orders with the
        // escalation's: counted before it was out, it once came out during the refusal (CI).
        try await eventually("the alert status published") {
            try h.bus.published(matching: "safewalk/alice/status").last?.decoded(WatchStatus.self).state == .alert
        }
        let before = try h.store.loadWatches()
        let statusesBefore = h.bus.published(matching: "safewalk/alice/status").count

        #expect(await h.service.erase(alice) == .openIncident)
        #expect(try h.store.loadWatches() == before)
        #expect(try h.store.escalationCount().total == 1)
        let retained = try await h.bus.subscribe("safewalk/alice/status", qos: .atLeastOnce).first(1)
        #expect(try retained[0].decoded(WatchStatus.self).state == .alert)
        #expect(h.bus.published(matching: "safewalk/alice/status").count == statusesBefore)

        // Once the walker is safe again, the erasure goes through, and clears the services' view
        // of the incident too, after its close.
        let incidents = try await h.bus.subscribe("safewalk/_incidents/alice", qos: .atLeastOnce)
        #expect(try await incidents.first(1)[0].decoded(IncidentState.self).state == .open)
        try await h.act("alice", .imSafe)
        try await eventually("the incident ended") { try h.store.loadWatches().first?.incident == nil }
        #expect(await h.service.erase(alice) == nil)
        #expect(try h.store.loadWatches().isEmpty)
        let seen = try await incidents.first(2)  // closed, then cleared
        #expect(try seen[0].decoded(IncidentState.self).state == .closed)
        #expect(seen[1].payload.isEmpty)
        try await eventually("the clearing rows acknowledged and gone") { try h.store.outboxCount(for: alice) == 0 }
        await h.cleanUp()
    }

    @Test func aWalkerNeverSeenIsReportedErasedTwice() async throws {
        let h = try await ServiceHarness()
        let ghost = try WalkerID("ghost")
        #expect(await h.service.erase(ghost) == nil)
        #expect(await h.service.erase(ghost) == nil)
        #expect(try h.store.loadWatches().isEmpty)
        #expect(h.bus.published(matching: "safewalk/ghost/#").isEmpty)
        await h.cleanUp()
    }
}
