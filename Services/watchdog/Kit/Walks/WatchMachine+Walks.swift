import SafeWalkCore

/// Walks that know where they are going (docs/CONTRACT.md): ``ArrivalRule``, ``ProgressRule`` and
/// ``MoreTimeRule`` applied to a watch. Like every timed rule, none of them runs while an incident
/// the device knows about is open: an automatic arrival never ends an incident (the walker says
/// `imSafe` or `arrived` themselves, with the PIN if one is set). A duress incident is not one the
/// device knows about, so for it the walk goes on, and arrives, exactly as after a cancel.
extension WatchMachine {
    /// The default of `SAFEWALK_WALK_STALL_AFTER`: five minutes without getting closer.
    public static let defaultWalkStallAfter: Double = 300

    /// What a `startWalk` with `to` follows; nil without `to`.
    func progress(for action: Action, now: EpochSeconds) -> WalkProgress? {
        guard action.to != nil, case .startWalk(_, let minutes) = action.kind else { return nil }
        return .starting(at: now, duration: minutes * 60, extendWhileProgressing: action.extendWhileProgressing)
    }

    /// A fix during a walk with `to`: the second in a row at the destination ends the walk as
    /// `arrived`; any other may prove the walker closer.
    func follow(
        _ fix: LocationFix, after previous: FixSummary?, _ watch: inout Watch, now: EpochSeconds,
        into decisions: inout Decisions
    ) {
        guard watch.followsLocation, watch.incident == nil, var progress = watch.progress, let to = watch.walk?.to
        else {
            return
        }
        // Not newer than the last fix (a retained position delivered again): not a second fix.
        if let previous, fix.tst <= previous.tst { return }
        let distance = Geo.distance(fix.coordinate, to)
        progress.fixesAtDestination = ArrivalRule.fixesInARow(
            after: progress.fixesAtDestination, fixIsAt: ArrivalRule.isAt(distance: distance, accuracy: fix.acc))
        if ArrivalRule.hasArrived(progress.fixesAtDestination) {
            noteArrival(watch, automatic: true, now: now, into: &decisions)
            endWatch(&watch)
            return
        }
        watch.progress = ProgressRule.after(
            progress, distance: distance, accuracy: fix.acc, margin: thresholds.movementMeters, now: now)
    }

    /// Ends the watch as `stop` and `arrived` do: every clock, the walk and the incident the
    /// device knows about. A duress incident stays (only the cancel PIN ends it).
    func endWatch(_ watch: inout Watch) {
        watch.timers = WatchTimers(offlineSince: watch.timers.offlineSince)
        watch.walk = nil
        watch.progress = nil
        watch.incident = nil
        watch.concerned = false
    }

    /// `_arrivals/{w}` for a watch that ends as `arrived`; nothing when none was running.
    func noteArrival(_ watch: Watch, automatic: Bool, now: EpochSeconds, into decisions: inout Decisions) {
        guard watch.isWatching else { return }
        let destination = watch.walk.map(\.destination).flatMap { $0.isEmpty ? nil : $0 }
        decisions.services.append(
            .publishArrival(Arrival(walker: watch.walker, at: now, destination: destination, automatic: automatic)))
    }

    /// The timers as ``EscalationRules`` sees them: `noMovement` only while the location is
    /// followed; while "need more time?" waits, the walk is overdue at the prompt's `replyBy`
    /// instead of its passed ETA.
    func ruleTimers(_ watch: Watch) -> WatchTimers {
        var timers = watch.timers
        timers.followsMovement = watch.followsLocation
        guard watch.progress?.moreTimeAskedAt != nil, watch.timers.walkETA != nil,
            let replyBy = EscalationRules.replyBy(watch.timers, thresholds: thresholds)
        else { return timers }
        timers.walkETA = replyBy
        return timers
    }

    /// When this walk's rules next need a timer (the stall's early check-in); the ETA is one of
    /// ``ruleTimers(_:)``'s deadlines.
    func nextWalkWake(_ watch: Watch) -> EpochSeconds? {
        guard watch.followsLocation else { return nil }
        return watch.progress.flatMap { ProgressRule.stallPromptAt($0, stallAfter: walkStallAfter) }
    }

    /// At the ETA (`walkOverdue` due first), with `extendWhileProgressing` and the walker closing
    /// in: "need more time?" instead. Returns whether it asked.
    func askForMoreTimeIfDue(_ watch: inout Watch, now: EpochSeconds, into decisions: inout Decisions) -> Bool {
        guard let eta = watch.timers.walkETA, now >= eta, var progress = watch.progress,
            let replyBy = EscalationRules.replyBy(watch.timers, thresholds: thresholds),
            MoreTimeRule.shouldAsk(progress, now: now, replyBy: replyBy, stallAfter: walkStallAfter)
        else { return false }
        progress.moreTimeAskedAt = now
        watch.progress = progress
        if watch.timers.promptSentAt == nil { watch.timers.promptSentAt = now }
        decisions.prompts.append(.prompt(at: now, replyBy: replyBy))
        return true
    }

    /// `walkStallAfter` without getting closer: one early check-in for this stall. None goes out
    /// while a check-in already waits for an answer (it asks the same), but the stall counts as
    /// prompted, so the walker is not asked again until they get closer.
    func promptIfStalled(_ watch: inout Watch, now: EpochSeconds, into decisions: inout Decisions) {
        guard watch.followsLocation, var progress = watch.progress,
            let due = ProgressRule.stallPromptAt(progress, stallAfter: walkStallAfter), now >= due
        else { return }
        progress.stallPrompted = true
        watch.progress = progress
        guard watch.timers.promptSentAt == nil,
            let replyBy = EscalationRules.replyBy(watch.timers, thresholds: thresholds)
        else { return }
        watch.timers.promptSentAt = now
        decisions.prompts.append(.prompt(at: now, replyBy: replyBy))
    }

    /// A reply or `imSafe` while "need more time?" waits: the walk gets its length again, once.
    func grantMoreTimeIfAsked(_ watch: inout Watch, now: EpochSeconds) {
        guard var progress = watch.progress, progress.moreTimeAskedAt != nil else { return }
        let eta = MoreTimeRule.extendedETA(progress, answeredAt: now)
        progress.moreTimeAskedAt = nil
        progress.extended = true
        watch.progress = progress
        watch.timers.walkETA = eta
        watch.walk?.eta = eta
    }

    /// `walkOverdue` fired: an unanswered question is over (a late answer extends nothing).
    func closeMoreTimeQuestion(_ watch: inout Watch) {
        watch.progress?.moreTimeAskedAt = nil
    }

    /// `imSafe` restarts every clock: the stall is counted from now, and the fixes at the
    /// destination from the next one.
    func rearmWalk(_ watch: inout Watch, now: EpochSeconds) {
        guard var progress = watch.progress else { return }
        progress.stallSince = now
        progress.stallPrompted = false
        progress.fixesAtDestination = 0
        watch.progress = progress
    }
}
