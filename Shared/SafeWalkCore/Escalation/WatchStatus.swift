/// The watch state shown on the device and to contacts.
public enum WatchState: String, CaseIterable, Hashable, Sendable, Codable {
    /// Nothing outstanding.
    case safe
    /// A check-in prompt is waiting for an answer.
    case checking
    /// An escalation fired and has not been ended by `imSafe` or `stop`.
    case alert
}

/// The retained status on `{w}/status` (watchdog → device, contacts).
public struct WatchStatus: Codable, Hashable, Sendable {
    var v = SchemaVersion()
    public var state: WatchState
    /// Whether a watch is running: `safe` alone does not tell the app whether it is being
    /// watched (docs/CONTRACT.md, `{w}/status`).
    public var watching: Bool
    /// When `state` last changed.
    public var since: EpochSeconds
    /// When the next check-in prompt is due, if one is scheduled.
    public var nextCheckInAt: EpochSeconds?
    /// Why the state is `alert`.
    public var reason: EscalationReason?
    public var level: EscalationLevel?
    public var walk: WalkPlan?

    public init(
        state: WatchState, watching: Bool, since: EpochSeconds, nextCheckInAt: EpochSeconds? = nil,
        reason: EscalationReason? = nil, level: EscalationLevel? = nil, walk: WalkPlan? = nil
    ) {
        self.state = state
        self.watching = watching
        self.since = since
        self.nextCheckInAt = nextCheckInAt
        self.reason = reason
        self.level = level
        self.walk = walk
    }
}
