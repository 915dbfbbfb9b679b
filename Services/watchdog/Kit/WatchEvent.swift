import SafeWalkCore

/// Something that happened to one walker, already validated.
public enum WatchEvent: Hashable, Sendable {
    /// A command from the device (`{w}/action`).
    case action(Action)
    /// An answer on `{w}/reply`: free text or a quick reply, looked up in the shared catalogue.
    case reply(text: String)
    /// The last accepted fix from ingest (`{w}/position`).
    case position(PositionUpdate)
    /// The device's presence (`{w}/presence`, its Last Will says `offline`).
    case presence(Presence)
    /// A deadline this walker scheduled has come. Which one is worked out from the state, so a
    /// stale timer is harmless.
    case timer
}

/// An escalation decided by the machine. The shell gives it an id and writes it to the outbox
/// before publishing it.
public struct EscalationDraft: Hashable, Sendable {
    public var reason: EscalationReason
    public var level: EscalationLevel
    public var at: EpochSeconds
    public var lastFix: FixSummary?
    public var walk: WalkPlan?

    public init(reason: EscalationReason, level: EscalationLevel, at: EpochSeconds, lastFix: FixSummary?,
                walk: WalkPlan?) {
        self.reason = reason
        self.level = level
        self.at = at
        self.lastFix = lastFix
        self.walk = walk
    }

    public func event(id: String, walker: WalkerID) -> EscalationEvent {
        EscalationEvent(id: id, walker: walker, reason: reason, level: level, at: at, lastFix: lastFix, walk: walk)
    }
}

/// What the shell must do after a step, in order.
public enum WatchAction: Hashable, Sendable {
    /// Publish this retained status on `{w}/status`.
    case publishStatus(WatchStatus)
    /// Publish a check-in prompt on `{w}/prompt`.
    case prompt(at: EpochSeconds, replyBy: EpochSeconds)
    /// Publish an escalation on `{w}/escalation` (through the outbox).
    case escalate(EscalationDraft)
}
