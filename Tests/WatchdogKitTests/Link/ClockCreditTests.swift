import SafeWalkCore
import Testing

@testable import WatchdogKit

/// A credited silence moves every deadline of a watch by exactly its length (``ClockCredit``).
@Suite struct ClockCreditTests {
    static let thresholds = SafetyThresholds(
        checkInInterval: 60, noReplyAfter: 120, noMovementAfter: 300, offlineGrace: 90, holdHeartbeat: 3)
    let machine = WatchMachine(thresholds: ClockCreditTests.thresholds)

    /// Each rule's deadline, by name, so a test says which one moved.
    func deadlines(_ watch: Watch) -> [String: EpochSeconds] {
        var result: [String: EpochSeconds] = [:]
        for deadline in EscalationRules.deadlines(machine.ruleTimers(watch), thresholds: Self.thresholds) {
            result[deadline.reason.rawValue] = deadline.at
        }
        result["checkIn"] = watch.nextCheckInAt(Self.thresholds)
        result["hold"] = watch.holdDeadline(Self.thresholds)
        result["wake"] = machine.nextWake(watch)
        return result
    }

    @Test func everyDeadlineOfAWatchMovesByTheSilence() {
        var watch = Watch(walker: try! WalkerID("alice"), stateSince: 1_000)
        watch.timers = WatchTimers(
            watchedSince: 1_000, lastCheckInAt: 1_030, lastMovedAt: 1_010, walkETA: 1_500, offlineSince: 1_040)
        watch.hold = HoldSwitch(level: .red, lastBeatAt: 1_045)
        let before = deadlines(watch)
        let after = deadlines(ClockCredit.moved(watch, by: 42))
        #expect(before.keys.sorted() == after.keys.sorted())
        for (name, at) in before { #expect(after[name] == at + 42, "\(name)") }
        #expect(before.count == 7, "walkOverdue, noReply, noMovement, trackerOffline, checkIn, hold, wake")
    }

    @Test func timesNotYetSetMoveFromTheStartOfTheWatch() {
        var watch = Watch(walker: try! WalkerID("bob"), stateSince: 1_000)
        watch.timers = WatchTimers(watchedSince: 1_000)
        let moved = ClockCredit.moved(watch, by: 10)
        #expect(deadlines(moved)["noReply"] == 1_130)
        #expect(deadlines(moved)["noMovement"] == 1_310)
        #expect(moved.timers.promptSentAt == watch.timers.promptSentAt, "a pending check-in stays pending")
    }

    @Test func aWatchThatIsNotRunningKeepsItsTimesButAHeldButtonStillMoves() {
        var watch = Watch(walker: try! WalkerID("carol"), stateSince: 1_000)
        watch.hold = HoldSwitch(level: .amber, lastBeatAt: 1_000)
        let moved = ClockCredit.moved(watch, by: 5)
        #expect(moved.timers == watch.timers)
        #expect(moved.hold?.lastBeatAt == 1_005)
    }

    @Test func aWalksProgressClocksMove() {
        var watch = Watch(walker: try! WalkerID("dan"), stateSince: 1_000)
        watch.timers = WatchTimers(watchedSince: 1_000, walkETA: 2_000)
        watch.progress = WalkProgress(
            duration: 1_000, extendWhileProgressing: true, stallSince: 1_100, closerAt: 1_100, moreTimeAskedAt: 1_900)
        let moved = ClockCredit.moved(watch, by: 30)
        #expect(moved.progress?.stallSince == 1_130)
        #expect(moved.progress?.closerAt == 1_130)
        #expect(moved.progress?.moreTimeAskedAt == 1_930)
        #expect(moved.timers.walkETA == 2_030)
    }
}
