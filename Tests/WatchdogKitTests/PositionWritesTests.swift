import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

@testable import WatchdogKit

/// A change that only a fix made waits up to `SAFEWALK_POSITION_WRITE_DELAY` before SQLite sees
/// it (``PositionWrites``); every other change is written before its effects, carrying the
/// position with it; and a restart gets the position back from the retained `{w}/position`.
@Suite(.timeLimit(.minutes(2))) struct PositionWritesTests {
    let alice = try! WalkerID("alice")
    let bob = try! WalkerID("bob")
    let carol = try! WalkerID("carol")

    static func fix(at tst: EpochSeconds) -> PositionUpdate {
        PositionUpdate(fix: LocationFix(lat: 30.2849, lon: -97.7341, tst: tst, acc: 5), moved: true, lastMovedAt: tst)
    }

    @Test func aFixAloneMayWaitButNotOneThatEndsAPauseNorAnyOtherEvent() {
        let machine = WatchMachine(thresholds: ServiceHarness.thresholds)
        let (watching, _) = machine.step(
            WatchMachine.fresh(alice, now: 1_000), .action(Action(id: "a1", kind: .start)), now: 1_000)
        let (moved, _) = machine.step(watching, .position(Self.fix(at: 1_005)), now: 1_005)
        #expect(moved != watching)
        #expect(PositionWrites.canWait(from: watching, to: moved))
        let (paused, _) = machine.step(moved, .presence(.background), now: 1_006)
        #expect(!PositionWrites.canWait(from: moved, to: paused))
        let (resumed, _) = machine.step(paused, .position(Self.fix(at: 1_010)), now: 1_010)
        #expect(resumed.locationPausedAt == nil)
        #expect(!PositionWrites.canWait(from: paused, to: resumed), "the pause's end is written at once")
        let (answered, _) = machine.step(moved, .reply(text: "fine"), now: 1_011)
        #expect(!PositionWrites.canWait(from: moved, to: answered))
    }

    @Test func changesWaitTheirDelayOldestFirstAndAtMostAPassAtATime() {
        var writes = PositionWrites(delay: 10, maxPerPass: 2)
        writes.wait(alice, now: 100)
        writes.wait(bob, now: 101)
        writes.wait(carol, now: 102)
        writes.wait(alice, now: 105)  // still waiting since 100: the bound counts from there
        #expect(writes.dueAt() == 110)
        #expect(writes.takeDue(now: 109.9).isEmpty)
        #expect(writes.takeDue(now: 112) == [alice, bob])
        #expect(writes.takeDue(now: 112) == [carol])
        writes.wait(alice, now: 120)
        writes.written(alice)
        #expect(writes.dueAt() == nil && writes.count == 0)
        #expect(writes.takeDue(now: 1_000).isEmpty)
        writes.wait(bob, now: 130)
        writes.wait(carol, now: 131)
        #expect(writes.takeDue(now: 0, all: true) == [bob, carol])
    }

    /// At walking pace each walker's wait ends at an instant of its own; once one is over, those
    /// ending within half the delay go with it, so their rows share a commit.
    @Test func aDueWriteTakesTheWaitsEndingWithinHalfTheDelay() {
        var writes = PositionWrites(delay: 10)
        writes.wait(alice, now: 100)
        writes.wait(bob, now: 103)
        writes.wait(carol, now: 106)
        #expect(writes.takeDue(now: 109.9).isEmpty, "nothing is written before one wait is over")
        #expect(writes.takeDue(now: 110) == [alice, bob], "bob's wait ends at 113, within 5 s")
        #expect(writes.dueAt() == 116)
        #expect(writes.takeDue(now: 115).isEmpty)
        #expect(writes.takeDue(now: 116) == [carol])
    }

    @Test func theDelayStaysWithinAQuarterOfNoMovement() {
        #expect(PositionWrites.effectiveDelay(10, noMovementAfter: 120) == 10)
        #expect(PositionWrites.effectiveDelay(60, noMovementAfter: 120) == 30)
        #expect(PositionWrites.effectiveDelay(0, noMovementAfter: 120) == 0)
    }

    /// The real service on a manual clock and a real SQLite file. A fix alone is on disk only
    /// once the delay has passed; an action right after another fix is answered only once
    /// written, and its row carries that fix too.
    @Test func aFixIsWrittenAfterTheDelayAndAnActionWritesItAtOnce() async throws {
        let h = try await ServiceHarness(now: 1_000, positionWriteDelay: 10)
        let answers = try await h.bus.subscribe("safewalk/alice/action/result", qos: .atLeastOnce)
        let rejections = try await h.bus.subscribe("safewalk/_rejected/watchdog", qos: .atMostOnce)
        try await h.act("alice", .start, id: "a1")
        _ = try await answers.first(1)
        try await h.send(.position(alice), Self.fix(at: 1_000))
        // Same subscription, so handled after alice's fix: once refused, the fix was handled.
        try await h.bus.publish("safewalk/bob/position", payload: Data("not json".utf8))
        _ = try await rejections.first(1)
        #expect(try storedFix(h)?.tst == nil, "waiting, not yet written")

        h.clock.advance(to: 1_010)
        try await eventually("the waiting fix written") { try storedFix(h)?.tst == 1_000 }

        try await h.send(.position(alice), Self.fix(at: 1_011))
        try await h.bus.publish("safewalk/bob/position", payload: Data("not json".utf8))
        _ = try await rejections.first(1)
        try await h.act("alice", .imSafe, id: "a2")
        _ = try await answers.first(1)
        #expect(try storedFix(h)?.tst == 1_011)
        await h.cleanUp()
    }

    /// After a stop with a fix not yet written, the next run reads the retained position again
    /// (the broker hands it over at the subscription) and an escalation carries it.
    @Test func aRestartGetsTheUnwrittenPositionBackFromTheRetainedFix() async throws {
        let existing = try ServiceHarness.freshStore()
        let bus = InMemoryMessageBus()
        let first = try await ServiceHarness(now: 1_000, store: existing, bus: bus, positionWriteDelay: 10)
        let answers = try await bus.subscribe("safewalk/alice/action/result", qos: .atLeastOnce)
        try await first.act("alice", .start, id: "a1")
        _ = try await answers.first(1)
        try await bus.publish(
            "safewalk/alice/position", payload: try SafeWalkJSON.encode(Self.fix(at: 1_003)), retain: true)
        let rejections = try await bus.subscribe("safewalk/_rejected/watchdog", qos: .atMostOnce)
        try await bus.publish("safewalk/bob/position", payload: Data("not json".utf8))
        _ = try await rejections.first(1)
        await first.stop()
        #expect(try existing.0.loadWatches().first { $0.walker == alice }?.lastFix == nil)

        let second = try await ServiceHarness(now: 1_004, store: existing, bus: bus, positionWriteDelay: 10)
        let escalations = try await bus.subscribe("safewalk/alice/escalation", qos: .atLeastOnce)
        // Behind the retained fix on the positions' subscription: once refused, the fix was read.
        try await bus.publish("safewalk/bob/position", payload: Data("still not json".utf8))
        _ = try await rejections.first(1)
        try await second.act("alice", .needHelp, id: "h1")
        let escalation = try await escalations.first(1)[0].decoded(EscalationEvent.self)
        #expect(escalation.lastFix?.tst == 1_003)
        await second.cleanUp()
    }

    private func storedFix(_ h: ServiceHarness) throws -> FixSummary? {
        try h.store.loadWatches().first { $0.walker == alice }?.lastFix
    }
}
