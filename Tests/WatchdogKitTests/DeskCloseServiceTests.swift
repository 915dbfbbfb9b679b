import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing
import WatchdogKit

/// The real ``WatchdogService`` (in-memory bus, real SQLite, manual clock) reading `_desk/close`:
/// answered on `_desk/result` only once the close is in SQLite, kept across a restart, and
/// unreadable requests refused and reported without their payload.
@Suite(.holdsResources) struct DeskCloseServiceTests {
    let alice = WalkerID(validating: "alice")!

    func close(_ incident: String, id: String = "d1", note: String? = nil) -> DeskClose {
        DeskClose(id: id, walker: alice, incident: incident, reason: .resolved, note: note, operator: "olga", at: 1)
    }

    @Test func theAnswerComesOnceTheCloseIsStoredAndARestartKeepsIt() async throws {
        let existing = try ServiceHarness.freshStore()
        let before = try await ServiceHarness(store: existing)
        let escalations = try await before.bus.subscribe("safewalk/alice/escalation", qos: .atLeastOnce)
        let results = try await before.bus.subscribe("safewalk/_desk/result", qos: .atLeastOnce)
        let incidents = try await before.bus.subscribe("safewalk/_incidents/alice", qos: .atLeastOnce)
        let statuses = try await before.bus.subscribe("safewalk/alice/status", qos: .atLeastOnce)
        try await before.act("alice", .start)
        // The watch is running (from 1,000) before time moves on.
        #expect(try await statuses.first(1)[0].decoded(WatchStatus.self).watching)
        before.clock.advance(to: 1_120)
        let escalation = try await escalations.first(1)[0].decoded(EscalationEvent.self)
        #expect(try await incidents.first(1)[0].decoded(IncidentState.self).state == .open)

        before.clock.advance(to: 1_200)
        try await before.send(.deskClose, close(escalation.id))
        let result = try await results.first(1)[0].decoded(DeskCloseResult.self)
        #expect(result == DeskCloseResult(id: "d1", ok: true, walker: alice, incident: escalation.id))
        // The answer promised it is on disk: the stored watch already has no incident.
        let stored = try #require(try existing.0.loadWatches().first)
        #expect(stored.incident == nil && stored.timers.lastCheckInAt == 1_200)
        let closed = try await incidents.first(1)[0].decoded(IncidentState.self)
        #expect(closed.state == .closed && closed.closedBy == .desk && closed.closeReason == .resolved)
        #expect(closed.closedAt == 1_200 && closed.incident == escalation.id)
        try await eventually("every row acknowledged") { try before.store.unsent().isEmpty }
        await before.stop()

        let after = try await ServiceHarness(now: 1_250, store: existing)
        let answers = try await after.bus.subscribe("safewalk/_desk/result", qos: .atLeastOnce)
        let later = try await after.bus.subscribe("safewalk/alice/escalation", qos: .atLeastOnce)
        try await after.send(.deskClose, close(escalation.id, id: "d2"))
        #expect(try await answers.first(1)[0].decoded(DeskCloseResult.self).error == .notOpen)
        // Re-armed before the restart: the next silence is 120 s after the close, not before.
        after.clock.advance(to: 1_320)
        let next = try await later.first(1)[0].decoded(EscalationEvent.self)
        #expect(next.at == 1_320 && next.incident != escalation.id)
        await after.cleanUp()
    }

    @Test func anUnreadableCloseIsRefusedByIDAndReportedWithoutItsPayload() async throws {
        let h = try await ServiceHarness()
        let results = try await h.bus.subscribe("safewalk/_desk/result", qos: .atLeastOnce)
        let rejections = try await h.bus.subscribe("safewalk/_rejected/watchdog", qos: .atMostOnce)
        let secret = "Spoke to alice by phone"
        let bad: [Data] = [
            Data(#"{"v":2,"id":"r1","walker":"alice","incident":"e1","reason":"resolved","operator":"o","at":1}"#.utf8),
            Data(#"{"v":1,"id":"r2","walker":"alice","incident":"e1","reason":"shrug","operator":"o","at":1}"#.utf8),
            Data(
                #"{"v":1,"id":"r3","walker":"alice","incident":"e1","reason":"resolved","operator":"o","at":1,"note":"\#(secret)\u0007"}"#
                    .utf8),
            Data(#"{"v":1,"walker":"alice","incident":"e1","reason":"resolved","operator":"o","at":1}"#.utf8),
            Data(repeating: 0x20, count: DeskCloseIntake.maxBytes + 1),
        ]
        for payload in bad { try await h.bus.publish("safewalk/_desk/close", payload: payload) }
        let refused = try await results.first(3).map { try $0.decoded(DeskCloseResult.self) }
        #expect(Set(refused.map(\.id)) == ["r1", "r2", "r3"])
        #expect(refused.allSatisfy { !$0.ok && $0.error == .refused })
        let reports = try await rejections.first(bad.count).map { try $0.decoded(Rejection.self) }
        #expect(reports.allSatisfy { $0.topicKind == .deskClose && $0.service == .watchdog })
        #expect(Set(reports.map(\.reason)).isSuperset(of: ["too_large", "invalid_note"]))
        let everything = h.bus.published(matching: "#").filter { $0.topic != "safewalk/_desk/close" }
            .map { String(decoding: $0.payload, as: UTF8.self) }
        #expect(!everything.contains { $0.contains(secret) }, "the payload is never echoed")
        #expect(h.reporter.total == bad.count)
        // Nothing for the walker's device either.
        #expect(h.bus.published(matching: "safewalk/alice/#").isEmpty)
        await h.cleanUp()
    }
}
