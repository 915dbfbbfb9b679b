import SafeWalkCore
import Testing
import WatchdogKit

/// `"location": false` on `start`/`startWalk`, and `background` on `{w}/presence`: without
/// location nothing about movement is timed; check-ins, `noReply` and the ETA still are.
@Suite struct LocationRuleTests {
    typealias F = WalkFixtures

    static func start(location: Bool?, id: String = "s") -> WatchEvent {
        .action(Action(id: id, kind: .start, location: location))
    }

    static func stillFix(at tst: EpochSeconds) -> WatchEvent { MachineHarness.position(moved: false, at: tst) }

    @Test func withLocationOffStandingStillForHoursNeverRaisesNoMovementButSilenceIsNoReply() {
        var h = MachineHarness()  // 60 s check-ins, 120 s noReply, 120 s noMovement
        h.send(Self.start(location: false), at: 1_000)
        #expect(h.statuses.last?.location == .off)
        // Three hours standing still (a fix every 30 s proving no movement), answering every prompt.
        var t: EpochSeconds = 1_000
        while t < 1_000 + 3 * 3_600 {
            t += 30
            h.send(Self.stillFix(at: t), at: t)
            if h.watch.state == .checking { h.send(.reply(text: "I'm okay 👍"), at: t) }
        }
        #expect(h.escalations.isEmpty)
        #expect(h.prompts.count > 100, "check-ins went on all the time")
        // Then silence: noReply 120 s after the last answer, whatever the fixes say.
        let lastAnswer = h.watch.timers.lastCheckInAt ?? 0
        h.run(until: lastAnswer + 119.999)
        #expect(h.escalations.isEmpty)
        h.run(until: lastAnswer + 120)
        #expect(h.escalations.map(\.draft.reason) == [.noReply])
    }

    @Test func theSameWatchWithLocationOnRaisesNoMovement() {
        var h = MachineHarness()
        h.send(Self.start(location: nil), at: 1_000)
        #expect(h.statuses.last?.location == .on)
        h.send(.reply(text: "I'm okay 👍"), at: 1_060)
        h.run(until: 1_120)
        #expect(h.escalations.map(\.draft.reason) == [.noMovement])
    }

    @Test func withLocationOffTheWalksETAStillApplies() {
        var h = MachineHarness(thresholds: F.quiet)
        h.send(
            .action(Action(id: "w", kind: .startWalk(destination: "Home", minutes: 10), to: F.home, location: false)),
            at: 1_000)
        // Standing 800 m away for the whole walk: no early check-in for the stall.
        for n in 0..<30 { h.send(F.fix(meters: 800, at: 1_010 + Double(n) * 20), at: 1_010 + Double(n) * 20) }
        // Two fixes at the destination do not end the walk either: nothing follows them.
        h.send(F.fix(meters: 0, acc: 5, at: 1_590), at: 1_590)
        h.send(F.fix(meters: 0, acc: 5, at: 1_595), at: 1_595)
        #expect(h.prompts.isEmpty)
        #expect(h.arrivals.isEmpty)
        h.run(until: 1_599.999)
        #expect(h.escalations.isEmpty)
        h.run(until: 1_600)
        #expect(h.escalations.map(\.draft.reason) == [.walkOverdue])
        #expect(h.escalations.first?.draft.lastFix?.tst == 1_595, "the last fix still goes with the escalation")
    }

    @Test func backgroundPausesNoMovementUntilTheNextFixWhichRestartsTheClock() {
        var h = MachineHarness(thresholds: SafetyThresholds(checkInInterval: 100_000, noReplyAfter: 100_000))
        h.send(Self.start(location: nil), at: 1_000)
        h.send(.presence(.background), at: 1_030)
        #expect(h.statuses.last?.location == .paused)
        h.run(until: 5_000)
        #expect(h.escalations.isEmpty, "an hour in the background is not standing still")
        // The app is back: its first fix resumes movement, counted from when it arrived.
        h.send(.presence(.online), at: 5_000)
        #expect(h.watch.location == .paused, "only a fix resumes it")
        h.send(Self.stillFix(at: 5_010), at: 5_011)
        #expect(h.statuses.last?.location == .on)
        h.run(until: 5_130.999)
        #expect(h.escalations.isEmpty)
        h.run(until: 5_131)
        #expect(h.escalations.map(\.draft.reason) == [.noMovement])
    }

    @Test func aFixTakenBeforeTheAppWentToTheBackgroundDoesNotResume() {
        var h = MachineHarness(thresholds: SafetyThresholds(checkInInterval: 100_000, noReplyAfter: 100_000))
        h.send(Self.start(location: nil), at: 1_000)
        h.send(MachineHarness.position(moved: true, at: 1_020), at: 1_021)
        h.send(.presence(.background), at: 1_030.5)
        // Still on its way through location-ingest when the app was hidden.
        h.send(MachineHarness.position(moved: true, at: 1_030), at: 1_031)
        #expect(h.watch.location == .paused)
        h.run(until: 9_000)
        #expect(h.escalations.isEmpty)
    }

    @Test func whilePausedCheckInsAndNoReplyStillApply() {
        var h = MachineHarness()
        h.send(Self.start(location: nil), at: 1_000)
        h.send(.presence(.background), at: 1_010)
        h.run(until: 1_119.999)
        #expect(h.prompts == [1_060])
        #expect(h.escalations.isEmpty)
        h.run(until: 1_120)
        #expect(h.escalations.map(\.draft.reason) == [.noReply])
    }

    @Test func whilePausedAWalkStillGoesOverdueButItsStallIsNotPrompted() {
        var h = MachineHarness(thresholds: F.quiet)
        h.send(F.startWalk(minutes: 20), at: 1_000)
        h.send(F.fix(meters: 800, at: 1_010), at: 1_010)
        h.send(.presence(.background), at: 1_020)
        h.run(until: 2_199.999)
        #expect(h.prompts.isEmpty, "no early check-in for a stall nobody could see")
        h.run(until: 2_200)
        #expect(h.escalations.map(\.draft.reason) == [.walkOverdue])
    }

    @Test func backgroundEndsAnOfflineGraceLikeOnline() {
        var h = MachineHarness(thresholds: F.quiet)
        h.send(Self.start(location: nil), at: 1_000)
        h.send(.presence(.offline), at: 1_010)
        h.send(.presence(.background), at: 1_050)
        h.run(until: 5_000)
        #expect(h.escalations.isEmpty)
    }

    @Test func startWhileWatchingChangesOnlyTheSettingItGives() {
        var h = MachineHarness(thresholds: SafetyThresholds(checkInInterval: 100_000, noReplyAfter: 100_000))
        h.send(Self.start(location: false, id: "s1"), at: 1_000)
        h.send(.action(Action(id: "w1", kind: .startWalk(destination: "Gym", minutes: 60))), at: 1_050)
        #expect(h.watch.location == .off, "absent keeps the running watch's setting")
        h.run(until: 1_500)
        #expect(h.escalations.isEmpty)
        // Turned on: movement is counted from now, not from the start of the watch.
        h.send(Self.start(location: true, id: "s2"), at: 1_500)
        #expect(h.statuses.last?.location == .on)
        #expect(h.watch.timers.watchedSince == 1_000, "the watch itself did not restart")
        h.run(until: 1_619.999)
        #expect(h.escalations.isEmpty)
        h.run(until: 1_620)
        #expect(h.escalations.map(\.draft.reason) == [.noMovement])
    }

    @Test func aNewWatchWithoutTheFieldFollowsTheLocationAgain() {
        var h = MachineHarness(thresholds: F.quiet)
        h.send(Self.start(location: false, id: "s1"), at: 1_000)
        h.act(.stop, at: 1_100)
        #expect(h.statuses.last?.location == nil, "absent when not watching")
        h.send(Self.start(location: nil, id: "s2"), at: 1_200)
        #expect(h.statuses.last?.location == .on)
    }

    @Test func theStatusSaysEachChangeOnce() {
        var h = MachineHarness(thresholds: F.quiet)
        h.send(Self.start(location: nil), at: 1_000)
        h.send(.presence(.background), at: 1_010)
        h.send(.presence(.background), at: 1_020)
        h.send(Self.stillFix(at: 1_030), at: 1_030)
        h.send(Self.stillFix(at: 1_040), at: 1_040)
        #expect(h.statuses.map(\.location) == [.on, .paused, .on])
        #expect(h.statuses.allSatisfy { $0.since == 1_000 }, "location is not the state")
    }
}
