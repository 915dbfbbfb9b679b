import SafeWalkCore
import Testing
import WatchdogKit

/// Hold-to-release, the server-held dead man's switch: `hold` arms it, `holding` keeps it alive
/// (default every 3 s, so two missed intervals = 6 s), `release` raises the panic at once,
/// `cancelHold` disarms silently, and the Last Will while armed raises the panic.
@Suite struct HoldRuleTests {
    /// No check-ins, no movement rule: only the switch can escalate.
    static let quiet = SafetyThresholds(checkInInterval: 100_000, noReplyAfter: 100_000, noMovementAfter: 100_000)

    @Test func releaseRaisesThePanicAtOnceAtTheHeldLevel() {
        var h = MachineHarness(thresholds: Self.quiet)
        h.send(.action(Action(id: "h", kind: .hold(.amber), note: "Walking past the garage")), at: 1_000)
        h.act(.holding, at: 1_002)
        h.act(.release, at: 1_003)
        #expect(h.escalations.map(\.at) == [1_003])
        #expect(h.escalations.first?.draft.reason == .panic)
        #expect(h.escalations.first?.draft.level == .amber)
        #expect(h.escalations.first?.draft.note == "Walking past the garage")
        #expect(h.watch.hold == nil)
        h.run(until: 2_000)
        #expect(h.escalations.count == 1, "a released switch never fires again")
    }

    @Test func heartbeatsKeepItArmedAndTheirLossRaisesThePanicAfterTwoIntervals() {
        var h = MachineHarness(thresholds: Self.quiet)
        h.act(.hold(.red), at: 1_000)
        for t in stride(from: 1_003.0, through: 1_030, by: 3) { h.act(.holding, at: t) }
        #expect(h.escalations.isEmpty)
        h.run(until: 1_035.999)  // last heartbeat at 1,030: 2 × 3 s later is 1,036
        #expect(h.escalations.isEmpty)
        h.run(until: 1_036)
        #expect(h.escalations.map(\.at) == [1_036])
        #expect(h.escalations.first?.draft.level == .red)
        #expect(h.watch.hold == nil)
    }

    @Test func cancelHoldDisarmsSilently() {
        var h = MachineHarness(thresholds: Self.quiet)
        h.act(.hold(.red), at: 1_000)
        let actions = h.act(.cancelHold, at: 1_001, id: "c")
        #expect(actions == [.answer(ActionResult(id: "c", ok: true))])
        h.run(until: 2_000)
        #expect(h.escalations.isEmpty)
    }

    @Test func theLastWillWhileArmedRaisesThePanicAtOnce() {
        var h = MachineHarness(thresholds: Self.quiet)
        h.act(.hold(.amber), at: 1_000)
        h.send(.presence(.offline), at: 1_002)
        #expect(h.escalations.map(\.at) == [1_002])
        #expect(h.escalations.first?.draft.reason == .panic)
        #expect(h.escalations.first?.draft.level == .amber)
    }

    @Test func releaseAndHeartbeatLossInTheSameInstantEscalateOnce() {
        var h = MachineHarness(thresholds: Self.quiet)
        h.act(.hold(.red), at: 1_000)
        h.act(.release, at: 1_006)  // exactly when the missed heartbeats fire
        #expect(h.escalations.map(\.at) == [1_006])
        h.run(until: 2_000)
        #expect(h.escalations.count == 1)
    }

    @Test func releaseJustBeforeTheHeartbeatDeadlineIsTheOnlyEscalation() {
        var h = MachineHarness(thresholds: Self.quiet)
        h.act(.hold(.red), at: 1_000)
        h.act(.release, at: 1_005.999)
        h.run(until: 2_000)
        #expect(h.escalations.map(\.at) == [1_005.999])
    }

    @Test func holdingDuringAnAmberIncidentAndReleasingRedEscalatesOnceMore() {
        var h = MachineHarness(thresholds: Self.quiet)
        h.act(.panic(.amber), at: 1_000)
        h.act(.hold(.red), at: 1_010)
        h.act(.release, at: 1_012)
        #expect(h.escalations.map(\.draft.level) == [.amber, .red])
    }

    @Test func holdingDuringARedIncidentAddsNoSecondEscalation() {
        var h = MachineHarness(thresholds: Self.quiet)
        h.act(.needHelp, at: 1_000)
        h.act(.hold(.red), at: 1_010)
        h.run(until: 1_100)  // heartbeats lost: the panic is the same incident
        #expect(h.escalations.count == 1)
        #expect(h.watch.hold == nil, "the switch fired and disarmed even though nothing new was sent")
    }

    @Test func holdWorksWithoutAWatch() {
        var h = MachineHarness(thresholds: Self.quiet)
        #expect(!h.watch.isWatching)
        h.act(.hold(.red), at: 1_000)
        h.run(until: 1_006)
        #expect(h.escalations.map(\.at) == [1_006])
    }

    @Test func aHeartbeatWithNothingHeldIsAClearError() {
        var h = MachineHarness(thresholds: Self.quiet)
        let actions = h.act(.holding, at: 1_000, id: "beat")
        #expect(actions == [.answer(ActionResult(id: "beat", ok: false, error: .notHolding))])
    }

    @Test func aReleaseTheServerNeverSawArmedStillCallsForHelp() {
        var h = MachineHarness(thresholds: Self.quiet)
        h.act(.release, at: 1_000)
        #expect(h.escalations.map(\.draft.level) == [.red])
    }

    @Test func theHeartbeatIntervalIsConfigurable() {
        var thresholds = Self.quiet
        thresholds.holdHeartbeat = 1
        var h = MachineHarness(thresholds: thresholds)
        h.act(.hold(.red), at: 1_000)
        h.run(until: 1_001.999)
        #expect(h.escalations.isEmpty)
        h.run(until: 1_002)
        #expect(h.escalations.map(\.at) == [1_002])
    }
}
