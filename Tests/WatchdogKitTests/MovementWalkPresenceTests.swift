import SafeWalkCore
import Testing
import WatchdogKit

/// noMovement, walkOverdue and trackerOffline, each with its exact edge.
@Suite struct MovementWalkPresenceTests {
    static let quietCheckIns = SafetyThresholds(checkInInterval: 100_000, noReplyAfter: 100_000)

    @Test func noMovementEscalatesExactly120SecondsAfterTheWatchBegan() {
        var h = MachineHarness(thresholds: Self.quietCheckIns)
        h.act(.start, at: 1_000)
        h.run(until: 1_119.999)
        #expect(h.escalations.isEmpty)
        h.run(until: 1_120)
        #expect(h.escalations.map(\.draft.reason) == [.noMovement])
        #expect(h.escalations.first?.draft.level == .amber)
    }

    @Test func provenMovementRestartsTheNoMovementClock() {
        var h = MachineHarness(thresholds: Self.quietCheckIns)
        h.act(.start, at: 1_000)
        h.send(MachineHarness.position(moved: true, at: 1_100), at: 1_100)
        h.send(MachineHarness.position(moved: false, at: 1_150), at: 1_150)
        h.run(until: 1_219.999)
        #expect(h.escalations.isEmpty)
        h.run(until: 1_220)
        #expect(h.escalations.map(\.at) == [1_220])
    }

    @Test func aRetainedOldPositionDoesNotCountAsFreshMovement() {
        var h = MachineHarness(thresholds: Self.quietCheckIns)
        h.act(.start, at: 1_000)
        h.send(MachineHarness.position(moved: true, at: 900, lastMovedAt: 900), at: 1_050)
        h.run(until: 1_120)
        #expect(h.escalations.map(\.at) == [1_120])
    }

    @Test func aDeviceClockAheadDoesNotBuyTime() {
        var h = MachineHarness(thresholds: Self.quietCheckIns)
        h.act(.start, at: 1_000)
        h.send(MachineHarness.position(moved: true, at: 1_050, lastMovedAt: 1_110), at: 1_050)
        h.run(until: 1_170)
        #expect(h.escalations.map(\.at) == [1_170])
    }

    @Test func aWalkPastItsETAEscalatesAtOnceWhateverTheMovement() {
        var h = MachineHarness(thresholds: Self.quietCheckIns)
        h.act(.startWalk(destination: "Library", minutes: 1.5), at: 1_000)
        h.send(MachineHarness.position(moved: true, at: 1_080), at: 1_080)
        h.run(until: 1_089.999)
        #expect(h.escalations.isEmpty)
        h.run(until: 1_090)
        #expect(h.escalations.map(\.draft.reason) == [.walkOverdue])
        #expect(h.escalations.first?.draft.walk == WalkPlan(destination: "Library", eta: 1_090))
    }

    @Test func arrivedEndsTheWalkAndTheWatch() {
        var h = MachineHarness(thresholds: Self.quietCheckIns)
        h.act(.startWalk(destination: "Library", minutes: 1), at: 1_000)
        h.act(.arrived, at: 1_050)
        h.run(until: 5_000)
        #expect(h.escalations.isEmpty)
        #expect(h.statuses.last == WatchStatus(state: .safe, watching: false, since: 1_050))
    }

    @Test func startWalkWhileInAlertKeepsTheAlertAndShowsTheNewWalk() {
        var h = MachineHarness(thresholds: Self.quietCheckIns)
        h.act(.panic(.amber), at: 1_000)
        h.act(.startWalk(destination: "Home", minutes: 2), at: 1_010)
        #expect(h.watch.state == .alert)
        #expect(h.statuses.last?.walk == WalkPlan(destination: "Home", eta: 1_130))
        #expect(h.statuses.last?.watching == true)
        h.run(until: 2_000)
        #expect(h.escalations.count == 1, "the same incident: the overdue walk adds no escalation")
    }

    @Test func imSafeAfterAnOverdueWalkDropsTheWalkInsteadOfEscalatingAgain() {
        var h = MachineHarness(thresholds: Self.quietCheckIns)
        h.act(.startWalk(destination: "Library", minutes: 1), at: 1_000)
        h.run(until: 1_060)
        h.act(.imSafe, at: 1_070)
        #expect(h.watch.walk == nil)
        #expect(h.watch.isWatching)
        h.run(until: 1_189.999)
        #expect(h.escalations.count == 1)
        h.run(until: 1_190)
        #expect(h.escalations.map(\.draft.reason) == [.walkOverdue, .noMovement])
    }

    @Test func offlineDuringAWatchEscalatesAfterTheGracePeriod() {
        var h = MachineHarness(
            thresholds: SafetyThresholds(
                checkInInterval: 100_000, noReplyAfter: 100_000,
                noMovementAfter: 100_000))
        h.act(.start, at: 1_000)
        h.send(.presence(.offline), at: 1_010)
        h.run(until: 1_069.999)
        #expect(h.escalations.isEmpty)
        h.run(until: 1_070)
        #expect(h.escalations.map(\.draft.reason) == [.trackerOffline])
    }

    @Test func comingBackOnlineWithinTheGraceCancelsIt() {
        var h = MachineHarness(
            thresholds: SafetyThresholds(
                checkInInterval: 100_000, noReplyAfter: 100_000,
                noMovementAfter: 100_000))
        h.act(.start, at: 1_000)
        h.send(.presence(.offline), at: 1_010)
        h.send(.presence(.online), at: 1_069)
        h.run(until: 5_000)
        #expect(h.escalations.isEmpty)
    }

    @Test func offlineBeforeTheWatchCountsFromTheWatchStart() {
        var h = MachineHarness(
            thresholds: SafetyThresholds(
                checkInInterval: 100_000, noReplyAfter: 100_000,
                noMovementAfter: 100_000))
        h.send(.presence(.offline), at: 500)
        h.run(until: 900)
        #expect(h.escalations.isEmpty, "not watched: nothing is timed")
        h.act(.start, at: 1_000)
        h.run(until: 1_060)
        #expect(h.escalations.map(\.at) == [1_060])
    }

    @Test func aWatchWhoseDeadlinesAllPassedWhileDownEscalatesTheEarliestOnce() {
        var h = MachineHarness()
        h.act(.startWalk(destination: "Library", minutes: 1), at: 1_000)
        // The shell was down: its next step for this walker happens an hour later.
        let (watch, actions) = h.machine.step(h.watch, .timer, now: 4_600)
        let escalations = actions.compactMap { if case .escalate(let draft) = $0 { draft } else { nil } }
        #expect(escalations.map(\.reason) == [.walkOverdue])
        #expect(escalations.first?.at == 4_600)
        #expect(watch.state == .alert)
        #expect(h.machine.step(watch, .timer, now: 9_000).1.isEmpty)
    }

    @Test func statusSinceChangesOnlyWhenTheStateDoes() {
        var h = MachineHarness(thresholds: Self.quietCheckIns)
        h.act(.start, at: 1_000)
        h.send(MachineHarness.position(moved: true, at: 1_010), at: 1_010)
        h.act(.startWalk(destination: "Gym", minutes: 5), at: 1_020)
        #expect(h.statuses.last?.since == 1_000)
        #expect(h.statuses.last?.walk?.eta == 1_320)
    }
}
