/// The watch state shown on the device and to contacts.
public enum WatchState: String, CaseIterable, Hashable, Sendable, Codable {
    /// Nothing outstanding.
    case safe
    /// A check-in prompt is waiting for an answer.
    case checking
    /// An escalation fired and has not been ended by `imSafe` or `stop`.
    case alert
}

/// Whether a watch follows the walker's location (`{w}/status`'s `location`), so the app can say
/// "checking in by replies only" when it does not.
public enum LocationState: String, CaseIterable, Hashable, Sendable, Codable {
    /// Fixes are followed: `noMovement` and a walk's progress rules run.
    case on
    /// The app went to the background (`background` on `{w}/presence`): nothing about movement is
    /// timed until the next fix arrives, which resumes it with the clock restarted from that fix.
    case paused
    /// The watch was started with `"location": false`: no `noMovement`, no walk progress rules.
    case off
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
    /// Whether the watch follows the walker's location; nil when not watching. Check-ins and a
    /// walk's ETA apply whatever it says.
    public var location: LocationState?

    public init(
        state: WatchState, watching: Bool, since: EpochSeconds, nextCheckInAt: EpochSeconds? = nil,
        reason: EscalationReason? = nil, level: EscalationLevel? = nil, walk: WalkPlan? = nil,
        location: LocationState? = nil
    ) {
        self.state = state
        self.watching = watching
        self.since = since
        self.nextCheckInAt = nextCheckInAt
        self.reason = reason
        self.level = level
        self.walk = walk
        self.location = location
    }
}
