import SafeWalkCore

/// What a PIN typed with an action turned out to be, worked out by the shell (hashing is IO-free
/// but slow and salted at random, so it stays out of the pure machine).
public enum PINVerdict: Hashable, Sendable {
    /// No PIN came with the action, or the walker has none set.
    case notGiven
    case cancel
    case duress
    case wrong
}

/// What the shell learnt about an action beyond its payload.
public struct ActionCheck: Hashable, Sendable {
    public var pin: PINVerdict
    /// For `setPins`: the new PINs, already hashed with a fresh salt.
    public var newPins: PINHashes?
    /// What was wrong with a cry for help that was taken anyway, for the answer.
    public var warnings: [String]

    public init(pin: PINVerdict = .notGiven, newPins: PINHashes? = nil, warnings: [String] = []) {
        self.pin = pin
        self.newPins = newPins
        self.warnings = warnings
    }

    public static let none = ActionCheck()
}

/// Something that happened to one walker, already validated.
public enum WatchEvent: Hashable, Sendable {
    /// A command from the device (`{w}/action`), with what the shell checked of it.
    case action(Action, ActionCheck = .none)
    /// An answer on `{w}/reply`: free text or a quick reply, looked up in the shared catalogue.
    case reply(text: String)
    /// The last accepted fix from ingest (`{w}/position`).
    case position(PositionUpdate)
    /// The device's presence (`{w}/presence`, its Last Will says `offline`).
    case presence(Presence)
    /// A deadline this walker scheduled has come. Which one is worked out from the state, so a
    /// stale timer is harmless.
    case timer
    /// The monitoring desk closes the walker's incident (`_desk/close`, from `web` only); see
    /// `WatchMachine+Desk.swift`.
    case deskClose(DeskClose)
}

/// An escalation decided by the machine, with its id and its incident's. The shell writes it to
/// the outbox before publishing it.
public struct EscalationDraft: Hashable, Sendable {
    public var id: String
    /// The id of the incident's first escalation (`id` itself for the first).
    public var incident: String
    public var reason: EscalationReason
    public var level: EscalationLevel
    public var at: EpochSeconds
    public var lastFix: FixSummary?
    public var walk: WalkPlan?
    public var note: String?
    public var duress: Bool

    /// Without `incident`, the draft opens its own incident.
    public init(
        id: String, incident: String? = nil, reason: EscalationReason, level: EscalationLevel, at: EpochSeconds,
        lastFix: FixSummary?, walk: WalkPlan?, note: String? = nil, duress: Bool = false
    ) {
        self.id = id
        self.incident = incident ?? id
        self.reason = reason
        self.level = level
        self.at = at
        self.lastFix = lastFix
        self.walk = walk
        self.note = note
        self.duress = duress
    }

    public func event(walker: WalkerID) -> EscalationEvent {
        EscalationEvent(
            id: id, walker: walker, reason: reason, level: level, at: at, lastFix: lastFix, walk: walk,
            note: note, duress: duress, incident: incident)
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
    /// Publish the incident's new state, retained, on the services-only `_incidents/{w}`
    /// (through the outbox, in order per walker).
    case publishIncident(IncidentState)
    /// Answer an action on `{w}/action/result` once the step is committed.
    case answer(ActionResult)
    /// Tell the services a walk ended as `arrived`, on `_arrivals/{w}` (through the outbox).
    case publishArrival(Arrival)
    /// Answer the monitoring desk on `_desk/result` once the step is committed (like ``answer``,
    /// it promises the close is on disk).
    case answerDesk(DeskCloseResult)
}
