import SafeWalkCore

/// An escalation that has fired and not yet been ended by `imSafe`, `stop` or `arrived`.
/// While it lasts, new triggers escalate again only if they are more severe (amber → red).
public struct Incident: Hashable, Sendable {
    public var reason: EscalationReason
    public var level: EscalationLevel
    public var at: EpochSeconds

    public init(reason: EscalationReason, level: EscalationLevel, at: EpochSeconds) {
        self.reason = reason
        self.level = level
        self.at = at
    }
}

/// Everything the watchdog knows about one walker: the pure state the ``WatchMachine`` steps.
/// A walker who is not watched and has no incident still has a `Watch` (its last fix and
/// presence matter the moment it calls for help).
public struct Watch: Hashable, Sendable {
    public var walker: WalkerID
    /// The rule clocks; `timers.watchedSince` is nil when not watching.
    public var timers: WatchTimers
    public var walk: WalkPlan?
    public var incident: Incident?
    /// When the shown state (`safe`/`checking`/`alert`, watched or not) last changed.
    public var stateSince: EpochSeconds
    /// The last position ingest reported, carried in escalations.
    public var lastFix: FixSummary?
    /// "Feeling nervous": check-ins come twice as often until the next plain answer.
    public var concerned: Bool
    /// The last few action ids, so a redelivered QoS 1 action (say an old `imSafe`) is not
    /// applied twice.
    public var recentActionIDs: [String]

    public init(
        walker: WalkerID, timers: WatchTimers = WatchTimers(), walk: WalkPlan? = nil, incident: Incident? = nil,
        stateSince: EpochSeconds = 0, lastFix: FixSummary? = nil, concerned: Bool = false,
        recentActionIDs: [String] = []
    ) {
        self.walker = walker
        self.timers = timers
        self.walk = walk
        self.incident = incident
        self.stateSince = stateSince
        self.lastFix = lastFix
        self.concerned = concerned
        self.recentActionIDs = recentActionIDs
    }

    /// How many action ids are remembered for de-duplication.
    public static let rememberedActions = 8

    public var isWatching: Bool { timers.watchedSince != nil }

    /// The state shown to the walker and contacts.
    public var state: WatchState {
        if incident != nil { return .alert }
        if isWatching, timers.promptSentAt != nil { return .checking }
        return .safe
    }

    /// When the next check-in prompt is due: nil when not watching, while a prompt waits for an
    /// answer, or during an incident (the walker has been escalated; prompting adds nothing).
    public func nextCheckInAt(_ thresholds: SafetyThresholds) -> EpochSeconds? {
        guard incident == nil else { return nil }
        var effective = thresholds
        if concerned { effective.checkInInterval = thresholds.checkInInterval / 2 }
        return EscalationRules.nextCheckInAt(timers, thresholds: effective)
    }

    /// The retained status for `{w}/status`.
    public func status(_ thresholds: SafetyThresholds) -> WatchStatus {
        WatchStatus(
            state: state, watching: isWatching, since: stateSince, nextCheckInAt: nextCheckInAt(thresholds),
            reason: incident?.reason, level: incident?.level, walk: walk)
    }
}
