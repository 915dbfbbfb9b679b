import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing
import WatchdogKit

/// The real ``WatchdogService`` (in-memory bus, real SQLite, manual clock) publishing
/// `_incidents/{w}`: retained, through the outbox, with the first escalation's id, across a
/// restart.
@Suite(.holdsResources) struct IncidentServiceTests {
    let alice = WalkerID(validating: "alice")!

    @Test func theServicesTopicFollowsAnIncidentFromOpenToClosed() async throws {
        let h = try await ServiceHarness()
        let incidents = try await h.bus.subscribe("safewalk/_incidents/+", qos: .atLeastOnce)
        let escalations = try await h.bus.subscribe("safewalk/+/escalation", qos: .atLeastOnce)
        try await h.act("alice", .panic(.amber))
        let opened = try await incidents.first(1)[0].decoded(IncidentState.self)
        try await h.act("alice", .needHelp)
        let raised = try await incidents.first(1)[0].decoded(IncidentState.self)
        try await h.act("alice", .imSafe)
        let closed = try await incidents.first(1)[0].decoded(IncidentState.self)

        let events = try await escalations.first(2).map { try $0.decoded(EscalationEvent.self) }
        let first = try #require(events.first { $0.level == .amber })
        #expect(events.map(\.incident) == [first.id, first.id])
        #expect([opened, raised, closed].map(\.incident) == [first.id, first.id, first.id])
        #expect([opened, raised, closed].map(\.state) == [.open, .open, .closed])
        #expect([opened.level, raised.level] == [.amber, .red])
        #expect(closed.closedBy == .imSafe && closed.closedAt == 1_000)
        // Retained: whoever subscribes later (the notifier after a restart) reads the last word.
        let retained = try await h.bus.subscribe("safewalk/_incidents/alice", qos: .atLeastOnce).first(1)
        #expect(try retained[0].decoded(IncidentState.self) == closed)
        try await eventually("every row acknowledged") { try h.store.unsent().isEmpty }
        await h.cleanUp()
    }

    @Test func aRestartKeepsTheIncidentsIDAndClosesItUnderIt() async throws {
        let existing = try ServiceHarness.freshStore()
        let before = try await ServiceHarness(store: existing)
        let escalations = try await before.bus.subscribe("safewalk/alice/escalation", qos: .atLeastOnce)
        try await before.act("alice", .needHelp)
        let escalation = try await escalations.first(1)[0].decoded(EscalationEvent.self)
        try await eventually("the escalation acknowledged") { try before.store.unsent().isEmpty }
        await before.stop()
        #expect(try existing.0.loadWatches().first?.incident?.id == escalation.id)

        let after = try await ServiceHarness(now: 2_000, store: existing)
        let incidents = try await after.bus.subscribe("safewalk/_incidents/alice", qos: .atLeastOnce)
        try await after.act("alice", .imSafe)
        let closed = try await incidents.first(1)[0].decoded(IncidentState.self)
        #expect(closed.incident == escalation.id && closed.state == .closed && closed.closedAt == 2_000)
        await after.cleanUp()
    }

    /// The notifier sends all-clears from a close: one written but not acknowledged before the
    /// watchdog stopped goes out when it is back.
    @Test func anUnsentCloseIsPublishedAfterARestart() async throws {
        let existing = try ServiceHarness.freshStore()
        let close = IncidentState(
            incident: "e1", walker: alice, state: .closed, reason: .panic, level: .red, duress: false,
            openedAt: 900, closedAt: 950, closedBy: .stop)
        let unsent = try OutboxComposer(prefix: "safewalk").items(for: alice, [.publishIncident(close)], now: 950)
        _ = try await existing.0.commit(watches: [], outbox: unsent)

        let bus = InMemoryMessageBus()
        let incidents = try await bus.subscribe("safewalk/_incidents/+", qos: .atLeastOnce)
        let h = try await ServiceHarness(now: 5_000, store: existing, bus: bus)
        let published = try await incidents.first(1)
        #expect(published[0].topic == "safewalk/_incidents/alice")
        #expect(try published[0].decoded(IncidentState.self) == close)
        try await eventually("the close acknowledged and deleted") { try h.store.unsent().isEmpty }
        await h.cleanUp()
    }
}
