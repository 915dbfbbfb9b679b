import SafeWalkCore
import Testing
import WatchdogKit

@Suite struct EscalationRulesTests {
    /// Watched since t0 and answering check-ins far ahead: only the rule under test can fire.
    let watched = WatchTimers(watchedSince: t0, lastCheckInAt: t0 + 5_000, lastMovedAt: t0)

    func due(_ timers: WatchTimers, at offset: Double, _ thresholds: SafetyThresholds = .defaults) -> EscalationReason?
    {
        EscalationRules.due(timers, thresholds: thresholds, now: t0 + offset)
    }

    @Test func nothingTimesOutWhenNotWatching() {
        let idle = WatchTimers(promptSentAt: t0, lastMovedAt: t0 - 9_999, walkETA: t0, offlineSince: t0)
        #expect(due(idle, at: 86_400) == nil)
        #expect(EscalationRules.deadlines(idle).isEmpty)
        #expect(EscalationRules.nextCheckInAt(idle) == nil)
    }

    @Test func noReplyFor120SecondsSinceTheLastReplyEscalates() {
        var timers = watched
        timers.lastCheckInAt = t0 + 60
        timers.lastMovedAt = t0 + 170  // moving, so only silence can fire
        #expect(due(timers, at: 60 + 119.999) == nil)
        #expect(due(timers, at: 60 + 120) == .noReply)
    }

    @Test func silenceCountsFromTheStartOfTheWatchNotFromThePrompt() {
        // The seed's rule: 120 s of silence, not a 60 s wait for the prompt plus 120 s after it.
        var timers = WatchTimers(watchedSince: t0, lastMovedAt: t0 + 110)
        timers.promptSentAt = t0 + 60
        #expect(due(timers, at: 119.999) == nil)
        #expect(due(timers, at: 120) == .noReply)
        #expect(EscalationRules.replyBy(timers) == t0 + 120)
    }

    @Test func aPromptDoesNotMoveTheDeadline() {
        var timers = watched
        timers.lastCheckInAt = t0
        timers.lastMovedAt = t0 + 110
        let before = EscalationRules.nextDeadline(timers)
        timers.promptSentAt = t0 + 60
        #expect(EscalationRules.nextDeadline(timers) == before)
        #expect(before == Deadline(at: t0 + 120, reason: .noReply))
    }

    @Test func noMovementForExactly120SecondsEscalates() {
        #expect(due(watched, at: 119.999) == nil)
        #expect(due(watched, at: 120) == .noMovement)
    }

    @Test func movementResetsTheNoMovementClock() {
        var timers = watched
        timers.lastMovedAt = t0 + 100
        #expect(due(timers, at: 219.999) == nil)
        #expect(due(timers, at: 220) == .noMovement)
    }

    @Test func movementBeforeTheWatchDoesNotCount() {
        let timers = WatchTimers(watchedSince: t0, lastCheckInAt: t0 + 5_000, lastMovedAt: t0 - 500)
        #expect(due(timers, at: 119) == nil)
        #expect(due(timers, at: 120) == .noMovement)
    }

    @Test func aWalkIsOverdueAtTheSecondOfItsETA() {
        var timers = watched
        timers.walkETA = t0 + 90
        #expect(due(timers, at: 89.999) == nil)
        #expect(due(timers, at: 90) == .walkOverdue)
    }

    @Test func anOverdueWalkEscalatesWhateverTheMovement() {
        var timers = watched
        timers.walkETA = t0 + 600
        timers.lastMovedAt = t0 + 599
        #expect(due(timers, at: 600) == .walkOverdue)
    }

    @Test func anOfflineTrackerEscalatesAfterTheGrace() {
        var timers = watched
        timers.lastMovedAt = t0 + 1_000
        timers.offlineSince = t0 + 10
        #expect(due(timers, at: 69.999) == nil)
        #expect(due(timers, at: 70) == .trackerOffline)
    }

    @Test func anOfflineReportFromBeforeTheWatchCountsFromItsStart() {
        let timers = WatchTimers(watchedSince: t0, lastMovedAt: t0 + 1_000, offlineSince: t0 - 3_600)
        #expect(due(timers, at: 59) == nil)
        #expect(due(timers, at: 60) == .trackerOffline)
    }

    @Test func afterARestartTheDeadlineThatPassedFirstIsReported() {
        // Watched since t0 - 200, last answer at t0 - 100: noReply at t0 + 20, the walk at t0 + 50.
        var timers = WatchTimers(watchedSince: t0 - 200, lastCheckInAt: t0 - 100, lastMovedAt: t0)
        timers.walkETA = t0 + 50
        #expect(due(timers, at: 10_000) == .noReply)
    }

    @Test func simultaneousDeadlinesPreferTheWalk() {
        var timers = watched
        timers.walkETA = t0 + 120  // same moment as noMovement
        #expect(EscalationRules.deadlines(timers).map(\.reason) == [.walkOverdue, .noMovement, .noReply])
        #expect(due(timers, at: 120) == .walkOverdue)
    }

    @Test func theNextDeadlineIsTheEarliestOne() {
        var timers = watched
        timers.promptSentAt = t0 + 30
        timers.offlineSince = t0 + 5
        #expect(EscalationRules.nextDeadline(timers) == Deadline(at: t0 + 65, reason: .trackerOffline))
    }

    @Test func checkInsFollowTheIntervalFromTheLastAnswer() {
        let fresh = WatchTimers(watchedSince: t0, lastMovedAt: t0)
        #expect(EscalationRules.nextCheckInAt(fresh) == t0 + 60)
        var timers = fresh
        timers.lastCheckInAt = t0 + 45
        #expect(EscalationRules.nextCheckInAt(timers) == t0 + 105)
        timers.promptSentAt = t0 + 105
        #expect(EscalationRules.nextCheckInAt(timers) == nil)
    }

    @Test func thresholdsAreConfigurable() {
        let quick = SafetyThresholds(checkInInterval: 10, noReplyAfter: 30, noMovementAfter: 45, offlineGrace: 5)
        var timers = watched
        timers.lastCheckInAt = t0
        #expect(due(timers, at: 29.9, quick) == nil)
        #expect(due(timers, at: 30, quick) == .noReply)
        #expect(due(watched, at: 45, quick) == .noMovement)
        #expect(EscalationRules.nextCheckInAt(WatchTimers(watchedSince: t0), thresholds: quick) == t0 + 10)
    }

    @Test func defaultsMatchTheDesign() {
        let d = SafetyThresholds.defaults
        #expect(
            [d.checkInInterval, d.noReplyAfter, d.noMovementAfter, d.movementMeters, d.offlineGrace] == [
                60, 120, 120, 5, 60,
            ])
        #expect(d.invalidFields.isEmpty)
    }

    @Test func unusableThresholdsAreNamed() {
        let bad = SafetyThresholds(checkInInterval: 0, noReplyAfter: -1, movementMeters: .nan)
        #expect(bad.invalidFields == ["checkInInterval", "noReplyAfter", "movementMeters"])
    }
}

/// 2023-11-14 22:13:20 UTC.
private let t0: EpochSeconds = 1_700_000_000
