import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing
import WatchdogKit

/// The service shell on an in-memory bus and a manual clock: ordering, persistence, recovery.
@Suite(.holdsResources) struct ServiceTests {
    @Test func aSilentWalkerIsPromptedThenEscalatedOnceAndTheOutboxRowIsMarkedSent() async throws {
        let h = try await ServiceHarness()
        let statuses = try await h.bus.subscribe("safewalk/alice/status", qos: .atLeastOnce)
        let prompts = try await h.bus.subscribe("safewalk/alice/prompt", qos: .atLeastOnce)
        let escalations = try await h.bus.subscribe("safewalk/+/escalation", qos: .atLeastOnce)
        try await h.act("alice", .start)
        let started = try await statuses.first(1)[0].decoded(WatchStatus.self)
        #expect(
            started == WatchStatus(state: .safe, watching: true, since: 1_000, nextCheckInAt: 1_060, location: .on))

        h.clock.advance(to: 1_060)
        let prompt = try await prompts.first(1)[0].decoded(CheckInPrompt.self)
        #expect(prompt.at == 1_060 && prompt.replyBy == 1_120)
        #expect(try await statuses.first(1)[0].decoded(WatchStatus.self).state == .checking)

        h.clock.advance(to: 1_120)
        let escalation = try await escalations.first(1)[0].decoded(EscalationEvent.self)
        #expect(escalation.reason == .noReply)
        #expect(escalation.walker.rawValue == "alice")
        #expect(escalation.at == 1_120)
        #expect(escalation.id == prompt.id ? false : true)
        #expect(try await statuses.first(1)[0].decoded(WatchStatus.self).state == .alert)

        // Time passes; a second walker's escalation proves the loop kept running meanwhile.
        try await h.act("bob", .needHelp)
        h.clock.advance(to: 5_000)
        let next = try await escalations.first(1)[0].decoded(EscalationEvent.self)
        #expect(next.walker.rawValue == "bob")
        #expect(h.bus.published(matching: "safewalk/alice/escalation").count == 1)
        try await eventually("escalations marked sent") { try h.store.escalationCount().unsent == 0 }
        #expect(try h.store.escalationCount().total == 2)
        await h.cleanUp()
    }

    @Test func hostileInputsAreRejectedAndReportedWhileOthersAreServed() async throws {
        let h = try await ServiceHarness()
        let rejections = try await h.bus.subscribe("safewalk/_rejected/watchdog", qos: .atMostOnce)
        let escalations = try await h.bus.subscribe("safewalk/+/escalation", qos: .atLeastOnce)
        let bad: [(String, Data)] = [
            ("safewalk/mallory/action", Data("not json".utf8)),
            ("safewalk/mallory/action", Data(#"{"v":2,"action":"start","id":"x"}"#.utf8)),
            ("safewalk/mallory/action", Data(#"{"v":1,"action":"selfDestruct","id":"x"}"#.utf8)),
            ("safewalk/mallory/action", Data(#"{"v":1,"action":"start","id":"a\nb"}"#.utf8)),
            ("safewalk/mallory/reply", Data(#"{"v":1,"tst":1}"#.utf8)),
            ("safewalk/mallory/reply", Data(repeating: 0x20, count: 20_000)),
            ("safewalk/mallory/presence", Data("maybe".utf8)),
            (
                "safewalk/mallory/position",
                Data(#"{"v":1,"lat":91,"lon":0,"tst":1000,"acc":5,"moved":true,"lastMovedAt":1000}"#.utf8)
            ),
        ]
        for (topic, payload) in bad { try await h.bus.publish(topic, payload: payload) }
        try await h.act("alice", .needHelp)
        let escalation = try await escalations.first(1)[0].decoded(EscalationEvent.self)
        #expect(escalation.walker.rawValue == "alice")
        let reports = try await rejections.first(bad.count).map { try $0.decoded(Rejection.self) }
        // Each input topic has its own subscription, so reports of different topics may interleave:
        // compare what was reported, not the order across topics.
        #expect(
            reports.map(\.reason).sorted()
                == [
                    "malformed", "unsupported_version", "invalid_value", "invalid_action_id",
                    "missing_field", "too_large", "invalid_presence", "latitude_out_of_range",
                ].sorted())
        #expect(reports.allSatisfy { $0.walker?.rawValue == "mallory" })
        #expect(h.reporter.total == bad.count)
        #expect(h.bus.published(matching: "safewalk/mallory/status").isEmpty, "nothing rejected reached a watch")
        await h.cleanUp()
    }

    @Test func aRestartFiresWhatPassedWhileDownAndRepublishesUnsentRowsWithTheirIDs() async throws {
        let existing = try ServiceHarness.freshStore()
        let (store, _) = existing
        let alice = try WalkerID("alice")
        let bob = try WalkerID("bob")
        // alice was on a walk due at 1_100; bob's escalation was written but never acknowledged.
        let walking = Watch(
            walker: alice, timers: WatchTimers(watchedSince: 1_000, lastCheckInAt: 1_000, walkETA: 1_100),
            walk: WalkPlan(destination: "Library", eta: 1_100), stateSince: 1_000)
        let draft = EscalationDraft(id: "original-id", reason: .panic, level: .red, at: 900, lastFix: nil, walk: nil)
        let unsent = try OutboxComposer(prefix: "safewalk").items(for: bob, [.escalate(draft)], now: 900)
        _ = try await store.commit(watches: [walking], outbox: unsent)

        let bus = InMemoryMessageBus()
        let escalations = try await bus.subscribe("safewalk/+/escalation", qos: .atLeastOnce)
        let h = try await ServiceHarness(now: 5_000, store: existing, bus: bus)
        let events = try await escalations.first(2).map { try $0.decoded(EscalationEvent.self) }
        #expect(Set(events.map(\.walker.rawValue)) == ["alice", "bob"])
        #expect(events.first { $0.walker == bob }?.id == "original-id")
        #expect(events.first { $0.walker == alice }?.reason == .walkOverdue)
        #expect(events.first { $0.walker == alice }?.at == 5_000)
        #expect(h.bus.published(matching: "safewalk/+/escalation").count == 2)
        await h.cleanUp()
    }
}
