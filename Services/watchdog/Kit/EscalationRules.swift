import SafeWalkCore

/// The times the escalation rules look at for one walker. All optional: a missing time
/// means the rule it feeds is not running.
public struct WatchTimers: Codable, Hashable, Sendable {
    /// When the current watch began; nil when not watching (then nothing times out).
    public var watchedSince: EpochSeconds?
    /// When the walker last answered a check-in (any reply) or said `imSafe`.
    public var lastCheckInAt: EpochSeconds?
    /// When the oldest unanswered prompt was sent; nil when none is pending.
    public var promptSentAt: EpochSeconds?
    /// When movement was last proven.
    public var lastMovedAt: EpochSeconds?
    /// The walk's ETA, if walking somewhere.
    public var walkETA: EpochSeconds?
    /// When the device's Last Will reported it offline; nil while online.
    public var offlineSince: EpochSeconds?
    /// Whether `noMovement` runs: false while the watch's location is off or paused
    /// (``Watch/location``). Not a time, so not kept with the watch: the machine sets it from the
    /// watch each time it asks these rules (``WatchMachine/ruleTimers(_:)``).
    public var followsMovement: Bool

    public init(
        watchedSince: EpochSeconds? = nil, lastCheckInAt: EpochSeconds? = nil, promptSentAt: EpochSeconds? = nil,
        lastMovedAt: EpochSeconds? = nil, walkETA: EpochSeconds? = nil, offlineSince: EpochSeconds? = nil,
        followsMovement: Bool = true
    ) {
        self.watchedSince = watchedSince
        self.lastCheckInAt = lastCheckInAt
        self.promptSentAt = promptSentAt
        self.lastMovedAt = lastMovedAt
        self.walkETA = walkETA
        self.offlineSince = offlineSince
        self.followsMovement = followsMovement
    }
}

/// A moment at which a rule escalates.
public struct Deadline: Codable, Hashable, Sendable {
    public var at: EpochSeconds
    public var reason: EscalationReason

    public init(at: EpochSeconds, reason: EscalationReason) {
        self.at = at
        self.reason = reason
    }
}

/// The timed escalation rules, as pure functions so the watchdog can schedule the next
/// deadline instead of polling. A deadline is due when `now >= at` (inclusive: exactly
/// 120 s after a prompt escalates, 119.999 s does not; a walk is overdue at its ETA).
public enum EscalationRules {
    /// Every running deadline, earliest first; ties in the order walkOverdue, noReply,
    /// noMovement, trackerOffline (most specific first). Empty when not watching.
    public static func deadlines(_ timers: WatchTimers, thresholds: SafetyThresholds = .defaults) -> [Deadline] {
        var result: [Deadline] = []
        forEachDeadline(timers, thresholds: thresholds) { result.append($0) }
        return result.sorted(by: precedes)
    }

    /// The rules themselves: each running deadline, in no particular order. Handed out one by one
    /// so that finding the next one allocates nothing: it is asked on every change of every watch
    /// and for each of a million watches restored at start-up (nextWake was a quarter of a
    /// restore when it sorted an array per watch).
    static func forEachDeadline(
        _ timers: WatchTimers, thresholds: SafetyThresholds, _ body: (Deadline) -> Void
    ) {
        guard let since = timers.watchedSince else { return }
        if let eta = timers.walkETA { body(Deadline(at: eta, reason: .walkOverdue)) }
        // The seed's rule: no reply for `noReplyAfter` counted from the last reply (or imSafe,
        // or the start of the watch), whether or not a prompt has gone out yet. Prompts only
        // remind; they never move this deadline.
        body(Deadline(at: noReplyDeadline(since: since, timers, thresholds: thresholds), reason: .noReply))
        // Movement before the watch began does not count towards it.
        if timers.followsMovement {
            let moved = max(since, timers.lastMovedAt ?? since)
            body(Deadline(at: moved + thresholds.noMovementAfter, reason: .noMovement))
        }
        if let offline = timers.offlineSince {
            body(Deadline(at: max(since, offline) + thresholds.offlineGrace, reason: .trackerOffline))
        }
    }

    /// Earlier first; at the same moment, the more specific reason first.
    static func precedes(_ a: Deadline, _ b: Deadline) -> Bool {
        a.at != b.at ? a.at < b.at : rank(a.reason) < rank(b.reason)
    }

    private static func rank(_ reason: EscalationReason) -> Int {
        switch reason {
        case .walkOverdue: 0
        case .noReply: 1
        case .noMovement: 2
        case .trackerOffline: 3
        case .needHelp, .panic, .wrongPin: 4  // never timed; listed for exhaustiveness
        }
    }

    /// When silence becomes `noReply`: `noReplyAfter` after the later of the watch start and the
    /// last check-in (any reply or `imSafe`).
    static func noReplyDeadline(
        since: EpochSeconds, _ timers: WatchTimers,
        thresholds: SafetyThresholds = .defaults
    ) -> EpochSeconds {
        max(since, timers.lastCheckInAt ?? since) + thresholds.noReplyAfter
    }

    /// The `noReply` deadline of a watch, nil when not watching (the prompt's `replyBy`).
    public static func replyBy(_ timers: WatchTimers, thresholds: SafetyThresholds = .defaults) -> EpochSeconds? {
        timers.watchedSince.map { noReplyDeadline(since: $0, timers, thresholds: thresholds) }
    }

    /// The next deadline to schedule.
    public static func nextDeadline(_ timers: WatchTimers, thresholds: SafetyThresholds = .defaults) -> Deadline? {
        var first: Deadline?
        forEachDeadline(timers, thresholds: thresholds) { deadline in
            if first.map({ precedes(deadline, $0) }) ?? true { first = deadline }
        }
        return first
    }

    /// The reason to escalate at `now`, if any deadline has passed: the earliest one, which
    /// is the one that fired first (e.g. after a restart). The watchdog ensures one incident
    /// escalates once; this only says what is due.
    public static func due(
        _ timers: WatchTimers, thresholds: SafetyThresholds = .defaults, now: EpochSeconds
    ) -> EscalationReason? {
        // The earliest deadline is the first to pass: if it has not, none has.
        nextDeadline(timers, thresholds: thresholds).flatMap { now >= $0.at ? $0.reason : nil }
    }

    /// When the next check-in prompt is due: `checkInInterval` after the later of the watch
    /// start and the last check-in. Nil when not watching or while a prompt is still
    /// unanswered (its `noReply` deadline covers that time).
    public static func nextCheckInAt(_ timers: WatchTimers, thresholds: SafetyThresholds = .defaults) -> EpochSeconds? {
        guard let since = timers.watchedSince, timers.promptSentAt == nil else { return nil }
        return max(since, timers.lastCheckInAt ?? since) + thresholds.checkInInterval
    }
}
