import SafeWalkCore
import Testing

@testable import WatchdogKit

/// A walker who has not got closer to `to` for `SAFEWALK_WALK_STALL_AFTER` (300 s) gets one early
/// check-in on `{w}/prompt`, scheduled like every other deadline.
@Suite struct StalledProgressTests {
    typealias F = WalkFixtures

    @Test func closerMeansByMoreThanTheFixAccuracyAndTheMovementThreshold() {
        #expect(!ProgressRule.provesCloser(distance: 990, accuracy: 15, best: 1_000, margin: 5), "within the accuracy")
        #expect(!ProgressRule.provesCloser(distance: 985, accuracy: 15, best: 1_000, margin: 5), "strictly more")
        #expect(ProgressRule.provesCloser(distance: 984.9, accuracy: 15, best: 1_000, margin: 5))
        #expect(!ProgressRule.provesCloser(distance: 996, accuracy: 0, best: 1_000, margin: 5), "0 m accuracy")
        #expect(ProgressRule.provesCloser(distance: 994, accuracy: 0, best: 1_000, margin: 5))
        #expect(!ProgressRule.provesCloser(distance: 500, accuracy: nil, best: 1_000, margin: 5), "unknown accuracy")
    }

    @Test func slowProgressAddsUpUntilItIsProven() {
        var progress = WalkProgress.starting(at: 0, duration: 600, extendWhileProgressing: false)
        progress = ProgressRule.after(progress, distance: 1_000, accuracy: 10, margin: 5, now: 10)
        #expect(progress.bestDistance == 1_000 && progress.closerAt == nil, "the first fix only sets the mark")
        for (n, distance) in [996.0, 992, 988].enumerated() {
            progress = ProgressRule.after(progress, distance: distance, accuracy: 10, margin: 5, now: 20 + Double(n))
        }
        #expect(progress.closerAt == 22, "12 m closer than the mark, more than the 10 m accuracy")
        #expect(progress.bestDistance == 988)
    }

    @Test func aWalkerWhoStopsGettingCloserGetsOneEarlyCheckInAfterFiveMinutes() {
        var h = MachineHarness(thresholds: F.quiet)
        h.send(F.startWalk(minutes: 60), at: 1_000)
        // Standing 800 m away, a fix every 20 s, for an hour.
        for n in 0..<180 {
            let t = 1_010 + Double(n) * 20
            h.send(F.fix(meters: 800, bearing: Double(n % 7), acc: 8, at: t), at: t)
        }
        #expect(h.prompts == [1_300], "one prompt per stall, not one per fix")
        #expect(h.escalations.isEmpty)
    }

    @Test func theEarlyCheckInIsAnOrdinaryPrompt() {
        var h = MachineHarness(thresholds: SafetyThresholds(checkInInterval: 100_000, noMovementAfter: 100_000))
        h.send(F.startWalk(minutes: 60), at: 1_000)
        for t in [1_100.0, 1_200, 1_250] { h.send(.reply(text: "all good"), at: t) }
        h.run(until: 1_299.999)
        #expect(h.prompts.isEmpty)
        h.run(until: 1_300)
        #expect(h.log.contains { $0.action == .prompt(at: 1_300, replyBy: 1_370) }, "replyBy is the noReply deadline")
        #expect(h.watch.state == .checking)
        #expect(h.machine.nextWake(h.watch) == 1_370, "scheduled, never polled")
    }

    @Test func gettingCloserRestartsTheStallClock() {
        var h = MachineHarness(thresholds: F.quiet)
        h.send(F.startWalk(minutes: 60), at: 1_000)
        h.send(F.fix(meters: 1_000, acc: 10, at: 1_010), at: 1_010)
        h.send(F.fix(meters: 900, acc: 10, at: 1_200), at: 1_200)
        h.run(until: 1_499.999)
        #expect(h.prompts.isEmpty)
        h.run(until: 1_500)
        #expect(h.prompts == [1_500])
    }

    @Test func aFreshStallAfterProgressGetsItsOwnCheckIn() {
        var h = MachineHarness(thresholds: F.quiet)
        h.send(F.startWalk(minutes: 60), at: 1_000)
        h.send(F.fix(meters: 1_000, acc: 10, at: 1_010), at: 1_010)
        h.run(until: 1_300)
        h.send(.reply(text: "waiting for the bus"), at: 1_310)
        h.send(F.fix(meters: 500, acc: 10, at: 1_400), at: 1_400)
        h.run(until: 2_000)
        #expect(h.prompts == [1_300, 1_700])
    }

    @Test func jitterAroundTheSameSpotIsNotProgress() {
        var h = MachineHarness(thresholds: F.quiet)
        h.send(F.startWalk(minutes: 60), at: 1_000)
        for n in 0..<20 {
            let t = 1_010 + Double(n) * 15
            h.send(F.fix(meters: n.isMultiple(of: 2) ? 700 : 690, acc: 12, at: t), at: t)
        }
        h.run(until: 1_400)
        #expect(h.prompts == [1_300])
    }

    @Test func theStallTimeIsASetting() {
        var h = MachineHarness(thresholds: F.quiet)
        h.machine.walkStallAfter = 90
        h.send(F.startWalk(minutes: 60), at: 1_000)
        h.run(until: 1_089.999)
        #expect(h.prompts.isEmpty)
        h.run(until: 1_090)
        #expect(h.prompts == [1_090])
    }

    @Test func aWalkWithoutToHasNoStallRule() {
        var h = MachineHarness(thresholds: F.quiet)
        h.send(F.startWalk(minutes: 60, to: nil), at: 1_000)
        h.run(until: 4_599)
        #expect(h.prompts.isEmpty)
    }

    @Test func nothingIsPromptedDuringAnIncident() {
        var h = MachineHarness(thresholds: F.quiet)
        h.send(F.startWalk(minutes: 60), at: 1_000)
        h.act(.panic(.amber), at: 1_010)
        h.run(until: 2_000)
        #expect(h.prompts.isEmpty)
        h.act(.imSafe, at: 2_000)
        h.run(until: 2_299.999)
        #expect(h.prompts.isEmpty, "imSafe restarts the stall clock too")
        h.run(until: 2_300)
        #expect(h.prompts == [2_300])
    }
}
