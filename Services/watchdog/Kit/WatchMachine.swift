import Foundation
import SafeWalkCore

/// The safety rules for one walker as a pure function: `(watch, event, now) → (watch, actions)`.
/// No clock, no IO: a two-hour walk runs in microseconds under test. The one thing it takes from
/// outside is fresh escalation ids (`makeID`), because an incident's id is its first escalation's
/// and the machine must keep it with the incident; tests pass a counter.
///
/// Every step first fires whatever deadline is due at `now` (due means `now >= deadline`, as in
/// ``EscalationRules``), then applies the event. So the outcome never depends on whether the
/// shell delivered a timer before an event that arrived at the same instant: a reply exactly at
/// the `noReply` deadline is late, one a millisecond earlier is in time.
public struct WatchMachine: Sendable {
    public var thresholds: SafetyThresholds
    /// Seconds without getting closer to a walk's `to` before an early check-in
    /// (`SAFEWALK_WALK_STALL_AFTER`); also how recent progress must be for "need more time?".
    public var walkStallAfter: Double
    /// A new escalation id (a UUID in production) each time it is called.
    public var makeID: @Sendable () -> String

    public init(
        thresholds: SafetyThresholds = .defaults, walkStallAfter: Double = WatchMachine.defaultWalkStallAfter,
        makeID: @escaping @Sendable () -> String = { UUID().uuidString.lowercased() }
    ) {
        self.thresholds = thresholds
        self.walkStallAfter = walkStallAfter
        self.makeID = makeID
    }

    /// A walker the watchdog has never heard of.
    public static func fresh(_ walker: WalkerID, now: EpochSeconds) -> Watch {
        Watch(walker: walker, stateSince: now)
    }

    /// What one step decided, before it is put in the order the shell carries it out.
    struct Decisions {
        var escalations: [WatchAction] = []
        var answers: [WatchAction] = []
        var prompts: [WatchAction] = []
        /// Duress escalations go out after everything the device sees, so the device's answer
        /// and status leave exactly when a cancel's would.
        var silent: [WatchAction] = []
        /// `_incidents/{w}`, for services only, last for the same reason.
        var incidents: [WatchAction] = []
        /// Other services-only news (`_arrivals/{w}`), after the incident it never changes.
        var services: [WatchAction] = []
        /// The desk's answer (`_desk/result`), last: it reports what everything above did.
        var desk: [WatchAction] = []
    }

    public func step(_ watch: Watch, _ event: WatchEvent, now: EpochSeconds) -> (Watch, [WatchAction]) {
        var next = watch
        var decisions = Decisions()
        fireDue(&next, now: now, into: &decisions)
        // Compared after each half, so an incident a due timer opened and the event closed in the
        // same step is still published open, then closed.
        let afterTimers = next
        noteIncidentChange(from: watch, to: afterTimers, now: now, closer: nil, into: &decisions)
        apply(event, to: &next, now: now, into: &decisions)
        noteIncidentChange(
            from: afterTimers, to: next, now: now, closer: .init(event), reason: event.deskCloseReason,
            into: &decisions)
        if (next.state, next.isWatching) != (watch.state, watch.isWatching) { next.stateSince = now }
        var actions = decisions.escalations + decisions.answers + decisions.prompts
        let status = next.status(thresholds)
        if status != watch.status(thresholds) { actions.append(.publishStatus(status)) }
        return (next, actions + decisions.silent + decisions.incidents + decisions.services + decisions.desk)
    }

    private func noteIncidentChange(
        from before: Watch, to after: Watch, now: EpochSeconds, closer: IncidentState.Closer?,
        reason: DeskCloseReason? = nil, into decisions: inout Decisions
    ) {
        guard before.incident != after.incident || before.duress != after.duress else { return }
        decisions.incidents += IncidentPublications.between(
            before.incidentForServices, after.incidentForServices, now: now, closer: closer, reason: reason
        ).map(WatchAction.publishIncident)
    }

    /// When this walker next needs a `.timer` step; nil when nothing is scheduled. The held switch
    /// is timed always; the watch's rules only outside an incident (one incident, one escalation).
    public func nextWake(_ watch: Watch) -> EpochSeconds? {
        // The earliest of a few optional times, without an array: asked on every change of every
        // watch, and for each watch restored at start-up.
        var earliest = watch.holdDeadline(thresholds)
        func consider(_ wake: EpochSeconds?) {
            if let wake, earliest.map({ wake < $0 }) ?? true { earliest = wake }
        }
        if watch.incident == nil, watch.isWatching {
            consider(EscalationRules.nextDeadline(ruleTimers(watch), thresholds: thresholds)?.at)
            consider(watch.nextCheckInAt(thresholds))
            consider(nextWalkWake(watch))
        }
        return earliest
    }

    private func fireDue(_ watch: inout Watch, now: EpochSeconds, into decisions: inout Decisions) {
        if let hold = watch.hold, let deadline = watch.holdDeadline(thresholds), now >= deadline {
            // The heartbeats stopped: the phone was knocked away or the app died with the finger down.
            watch.hold = nil
            escalate(&watch, .panic, level: hold.level, note: hold.note, now: now, into: &decisions)
        }
        guard watch.incident == nil, watch.isWatching else { return }
        var due = EscalationRules.due(ruleTimers(watch), thresholds: thresholds, now: now)
        if due == .walkOverdue, askForMoreTimeIfDue(&watch, now: now, into: &decisions) {
            due = EscalationRules.due(ruleTimers(watch), thresholds: thresholds, now: now)
        }
        if let reason = due {
            closeMoreTimeQuestion(&watch)
            escalate(&watch, reason, level: reason.defaultLevel, now: now, into: &decisions)
            return
        }
        promptIfStalled(&watch, now: now, into: &decisions)
        if let checkIn = watch.nextCheckInAt(thresholds), now >= checkIn,
            let replyBy = EscalationRules.replyBy(watch.timers, thresholds: thresholds)
        {
            watch.timers.promptSentAt = now
            decisions.prompts.append(.prompt(at: now, replyBy: replyBy))
        }
    }

    private func apply(
        _ event: WatchEvent, to watch: inout Watch, now: EpochSeconds,
        into decisions: inout Decisions
    ) {
        switch event {
        case .action(let action, let check):
            answer(action, check, to: &watch, now: now, into: &decisions)
        case .reply(let text):
            let effect = QuickReply.lookup(text)?.effect ?? .answersCheckIn
            grantMoreTimeIfAsked(&watch, now: now)
            if watch.isWatching {
                watch.timers.promptSentAt = nil
                watch.timers.lastCheckInAt = now
                if effect == .answersCheckIn { watch.concerned = false }
                if effect == .answersCheckInWithConcern { watch.concerned = true }
            }
            if case .escalate(let reason) = effect {
                escalate(&watch, reason, level: reason.defaultLevel, now: now, into: &decisions)
            }
        case .position(let update):
            let previous = watch.lastFix
            if previous.map({ update.fix.tst >= $0.tst }) ?? true { watch.lastFix = FixSummary(update.fix) }
            resumeLocationIfPaused(after: update.fix, &watch, now: now)
            // With location off or paused a fix is kept for escalations, and proves nothing.
            guard watch.followsLocation else { return }
            if update.moved {
                // Device time, capped at now: a replayed retained position must not count as fresh
                // movement, and a fast device clock must not buy time.
                let movedAt = min(now, update.lastMovedAt)
                watch.timers.lastMovedAt = max(watch.timers.lastMovedAt ?? movedAt, movedAt)
            }
            follow(update.fix, after: previous, &watch, now: now, into: &decisions)
        case .presence(.offline):
            if let hold = watch.hold {
                // The Last Will while the finger was down: the phone that was knocked away still calls.
                watch.hold = nil
                escalate(&watch, .panic, level: hold.level, note: hold.note, now: now, into: &decisions)
            }
            if watch.timers.offlineSince == nil { watch.timers.offlineSince = now }
        case .presence(.online):
            watch.timers.offlineSince = nil
        case .presence(.background):
            // The app said it, so the device is there: like `online`, it ends an offline grace.
            watch.timers.offlineSince = nil
            pauseLocation(&watch, now: now)
        case .timer:
            break
        case .deskClose(let close):
            closeForDesk(close, &watch, now: now, into: &decisions)
        }
    }

    /// One incident, one escalation: while an incident lasts only a more severe level
    /// (amber → red) escalates again. The incident's id is its first escalation's; a raise keeps
    /// it, and so does a new incident while a duress one is open (the services see one incident).
    func escalate(
        _ watch: inout Watch, _ reason: EscalationReason, level: EscalationLevel, note: String? = nil,
        now: EpochSeconds, into decisions: inout Decisions
    ) {
        if let incident = watch.incident, !(incident.level == .amber && level == .red) { return }
        let id = makeID()
        let incident = watch.incident?.id ?? watch.duress?.id ?? id
        watch.incident = Incident(id: incident, reason: reason, level: level, at: watch.incident?.at ?? now)
        decisions.escalations.append(
            .escalate(
                EscalationDraft(
                    id: id, incident: incident, reason: reason, level: level, at: now, lastFix: watch.lastFix,
                    walk: watch.walk, note: note)))
    }
}
