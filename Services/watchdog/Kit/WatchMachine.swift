import SafeWalkCore

/// The safety rules for one walker as a pure function: `(watch, event, now) → (watch, actions)`.
/// No clock, no IO: a two-hour walk runs in microseconds under test.
///
/// Every step first fires whatever deadline is due at `now` (due means `now >= deadline`, as in
/// ``EscalationRules``), then applies the event. So the outcome never depends on whether the
/// shell delivered a timer before an event that arrived at the same instant: a reply exactly at
/// the `noReply` deadline is late, one a millisecond earlier is in time.
public struct WatchMachine: Sendable {
    public var thresholds: SafetyThresholds

    public init(thresholds: SafetyThresholds = .defaults) {
        self.thresholds = thresholds
    }

    /// A walker the watchdog has never heard of.
    public static func fresh(_ walker: WalkerID, now: EpochSeconds) -> Watch {
        Watch(walker: walker, stateSince: now)
    }

    public func step(_ watch: Watch, _ event: WatchEvent, now: EpochSeconds) -> (Watch, [WatchAction]) {
        var next = watch
        var actions: [WatchAction] = []
        fireDue(&next, now: now, into: &actions)
        apply(event, to: &next, now: now, into: &actions)
        if (next.state, next.isWatching) != (watch.state, watch.isWatching) { next.stateSince = now }
        let status = next.status(thresholds)
        if status != watch.status(thresholds) { actions.append(.publishStatus(status)) }
        return (next, actions)
    }

    /// When this walker next needs a `.timer` step; nil when nothing is scheduled. Nothing is
    /// timed outside a watch or during an incident (one incident, one escalation).
    public func nextWake(_ watch: Watch) -> EpochSeconds? {
        guard watch.incident == nil, watch.isWatching else { return nil }
        let deadline = EscalationRules.nextDeadline(watch.timers, thresholds: thresholds)?.at
        switch (deadline, watch.nextCheckInAt(thresholds)) {
        case (let a?, let b?): return min(a, b)
        case (let a?, nil): return a
        case (nil, let b?): return b
        case (nil, nil): return nil
        }
    }

    private func fireDue(_ watch: inout Watch, now: EpochSeconds, into actions: inout [WatchAction]) {
        guard watch.incident == nil, watch.isWatching else { return }
        if let reason = EscalationRules.due(watch.timers, thresholds: thresholds, now: now) {
            escalate(&watch, reason, level: reason.defaultLevel, now: now, into: &actions)
            return
        }
        if let checkIn = watch.nextCheckInAt(thresholds), now >= checkIn {
            // Sent now, not back-dated: after a restart the walker still gets the full reply time.
            watch.timers.promptSentAt = now
            actions.append(.prompt(at: now, replyBy: now + thresholds.noReplyAfter))
        }
    }

    private func apply(_ event: WatchEvent, to watch: inout Watch, now: EpochSeconds,
                       into actions: inout [WatchAction]) {
        switch event {
        case .action(let action):
            guard !watch.recentActionIDs.contains(action.id) else { return }  // QoS 1 redelivery
            watch.recentActionIDs.append(action.id)
            if watch.recentActionIDs.count > Watch.rememberedActions { watch.recentActionIDs.removeFirst() }
            apply(action, to: &watch, now: now, into: &actions)
        case .reply(let text):
            let effect = QuickReply.lookup(text)?.effect ?? .answersCheckIn
            if watch.isWatching {
                watch.timers.promptSentAt = nil
                watch.timers.lastCheckInAt = now
                if effect == .answersCheckIn { watch.concerned = false }
                if effect == .answersCheckInWithConcern { watch.concerned = true }
            }
            if case .escalate(let reason) = effect {
                escalate(&watch, reason, level: reason.defaultLevel, now: now, into: &actions)
            }
        case .position(let update):
            if watch.lastFix.map({ update.fix.tst >= $0.tst }) ?? true { watch.lastFix = FixSummary(update.fix) }
            guard watch.isWatching, update.moved else { return }
            // Device time, capped at now: a replayed retained position must not count as fresh
            // movement, and a fast device clock must not buy time.
            let movedAt = min(now, update.lastMovedAt)
            watch.timers.lastMovedAt = max(watch.timers.lastMovedAt ?? movedAt, movedAt)
        case .presence(.offline):
            if watch.timers.offlineSince == nil { watch.timers.offlineSince = now }
        case .presence(.online):
            watch.timers.offlineSince = nil
        case .timer:
            break
        }
    }

    private func apply(_ action: Action, to watch: inout Watch, now: EpochSeconds,
                       into actions: inout [WatchAction]) {
        switch action.kind {
        case .start:
            if !watch.isWatching { beginWatch(&watch, now: now) }
        case .startWalk:
            if !watch.isWatching { beginWatch(&watch, now: now) }
            watch.walk = action.walk(startingAt: now)
            watch.timers.walkETA = watch.walk?.eta
        case .stop, .arrived:
            watch.timers = WatchTimers(offlineSince: watch.timers.offlineSince)
            watch.walk = nil
            watch.incident = nil
            watch.concerned = false
        case .imSafe:
            rearm(&watch, now: now)
        case .needHelp:
            escalate(&watch, .needHelp, level: .red, now: now, into: &actions)
        case .panic(let level):
            escalate(&watch, .panic, level: level, now: now, into: &actions)
        }
    }

    private func beginWatch(_ watch: inout Watch, now: EpochSeconds) {
        watch.timers = WatchTimers(watchedSince: now, lastCheckInAt: now, offlineSince: watch.timers.offlineSince)
        watch.walk = nil
        watch.concerned = false
    }

    /// `imSafe`: ends the incident and restarts every running clock from now, so the trigger
    /// that fired does not fire again at once. An overdue walk is dropped (the walker can start
    /// a new one); a device still offline gets a new grace period.
    private func rearm(_ watch: inout Watch, now: EpochSeconds) {
        watch.incident = nil
        watch.concerned = false
        guard watch.isWatching else { return }
        watch.timers.promptSentAt = nil
        watch.timers.lastCheckInAt = now
        watch.timers.lastMovedAt = now
        if watch.timers.offlineSince != nil { watch.timers.offlineSince = now }
        if let eta = watch.timers.walkETA, eta <= now {
            watch.timers.walkETA = nil
            watch.walk = nil
        }
    }

    /// One incident, one escalation: while an incident lasts only a more severe level
    /// (amber → red) escalates again.
    private func escalate(_ watch: inout Watch, _ reason: EscalationReason, level: EscalationLevel,
                          now: EpochSeconds, into actions: inout [WatchAction]) {
        if let incident = watch.incident, !(incident.level == .amber && level == .red) { return }
        watch.incident = Incident(reason: reason, level: level, at: now)
        actions.append(.escalate(EscalationDraft(
            reason: reason, level: level, at: now, lastFix: watch.lastFix, walk: watch.walk)))
    }
}
