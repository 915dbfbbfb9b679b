/// Why an escalation fired. Raw values are the wire words.
public enum EscalationReason: String, CaseIterable, Hashable, Sendable, Codable {
    case noReply, noMovement, walkOverdue, needHelp, panic, trackerOffline
    /// Several wrong PINs in a row while trying to end an incident.
    case wrongPin

    /// The level used when the trigger does not carry one: `needHelp` is red (the walker
    /// said so); missed timers are amber (something may be wrong). `panic` carries its own
    /// level and falls back to red.
    public var defaultLevel: EscalationLevel {
        switch self {
        case .needHelp, .panic, .wrongPin: .red
        case .noReply, .noMovement, .walkOverdue, .trackerOffline: .amber
        }
    }
}

/// How urgent an escalation is: amber "keep an eye on me", red "I need help now".
public enum EscalationLevel: String, CaseIterable, Hashable, Sendable, Codable {
    case amber, red
}

/// A walk with a destination and an expected arrival time.
public struct WalkPlan: Codable, Hashable, Sendable {
    public var destination: String
    /// Expected arrival; passing it without `arrived` escalates `walkOverdue`.
    public var eta: EpochSeconds
    /// Where the destination is, when `startWalk` said (its `to`). Optional on the wire both ways:
    /// walks, statuses and escalations written before it existed read as walks without it, and a
    /// walk without it is written exactly as before.
    public var to: Coordinate?

    public init(destination: String, eta: EpochSeconds, to: Coordinate? = nil) {
        self.destination = destination
        self.eta = eta
        self.to = to
    }
}

/// The escalation event on `{w}/escalation`, exactly as docs/CONTRACT.md defines it.
/// `id` is the idempotency key: consumers drop ids they have already handled.
/// `lastFix` and `walk` are written as `null` when absent.
public struct EscalationEvent: Codable, Hashable, Sendable {
    var v = SchemaVersion()
    public var id: String
    /// The incident this escalation belongs to: the id of the incident's first escalation, so an
    /// amber → red raise (or the red a duress PIN adds) names the incident it raises. An event
    /// written before incidents had ids reads as its own incident.
    public var incident: String
    public var walker: WalkerID
    public var reason: EscalationReason
    public var level: EscalationLevel
    public var at: EpochSeconds
    public var lastFix: FixSummary?
    public var walk: WalkPlan?
    /// The walker's preset note with a cry for help (at most 140 characters).
    public var note: String?
    /// True when the walker's duress PIN raised this escalation: contacts must act, and the
    /// walker's device must never learn of it (``DeviceDisclosure``). Written only when true.
    public var duress: Bool

    /// `id` comes from the caller (e.g. a UUID string) because this module makes no randomness.
    /// `incident` is nil for the escalation that opens its incident (the incident is then `id`).
    public init(
        id: String, walker: WalkerID, reason: EscalationReason, level: EscalationLevel,
        at: EpochSeconds, lastFix: FixSummary?, walk: WalkPlan?, note: String? = nil, duress: Bool = false,
        incident: String? = nil
    ) {
        self.id = id
        self.incident = incident ?? id
        self.walker = walker
        self.reason = reason
        self.level = level
        self.at = at
        self.lastFix = lastFix
        self.walk = walk
        self.note = note
        self.duress = duress
    }

    private enum CodingKeys: String, CodingKey {
        case v, id, incident, walker, reason, level, at, lastFix, walk, note, duress
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        v = try container.decode(SchemaVersion.self, forKey: .v)
        id = try container.decode(String.self, forKey: .id)
        // Older producers, and outbox rows written before incidents had ids, have none.
        incident = try container.decodeIfPresent(String.self, forKey: .incident) ?? id
        walker = try container.decode(WalkerID.self, forKey: .walker)
        reason = try container.decode(EscalationReason.self, forKey: .reason)
        level = try container.decode(EscalationLevel.self, forKey: .level)
        at = try container.decode(EpochSeconds.self, forKey: .at)
        lastFix = try container.decodeIfPresent(FixSummary.self, forKey: .lastFix)
        walk = try container.decodeIfPresent(WalkPlan.self, forKey: .walk)
        note = try container.decodeIfPresent(String.self, forKey: .note)
        duress = try container.decodeIfPresent(Bool.self, forKey: .duress) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(v, forKey: .v)
        try container.encode(id, forKey: .id)
        try container.encode(incident, forKey: .incident)
        try container.encode(walker, forKey: .walker)
        try container.encode(reason, forKey: .reason)
        try container.encode(level, forKey: .level)
        try container.encode(at, forKey: .at)
        try container.encode(lastFix, forKey: .lastFix)  // explicit null, per the contract
        try container.encode(walk, forKey: .walk)
        try container.encodeIfPresent(note, forKey: .note)
        if duress { try container.encode(true, forKey: .duress) }
    }
}
