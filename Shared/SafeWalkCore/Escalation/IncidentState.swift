/// One incident as the services know it, retained on `_incidents/{w}` (watchdog → notifier, web,
/// operators; docs/CONTRACT.md). Never readable by the walker's device: under duress it shows the
/// incident the device saw cancelled still open, red and `duress`, so it lives outside the
/// walker's own topics, and nothing on it goes through ``DeviceDisclosure``.
public struct IncidentState: Codable, Hashable, Sendable {
    /// Whether the incident is still going on.
    public enum Phase: String, CaseIterable, Hashable, Sendable, Codable {
        case open, closed
    }

    /// What closed an incident: the walker's `imSafe`, `stop` or `arrived`, or the monitoring
    /// desk (`_desk/close`, with ``closeReason``).
    public enum Closer: String, CaseIterable, Hashable, Sendable, Codable {
        case imSafe, stop, arrived, desk
    }

    var v = SchemaVersion()
    /// The incident's id: the id of its first escalation (``EscalationEvent/incident``).
    public var incident: String
    public var walker: WalkerID
    public var state: Phase
    /// The reason of the escalation that opened or last raised it.
    public var reason: EscalationReason
    public var level: EscalationLevel
    /// Raised by the duress PIN: the walker's device was shown a cancel.
    public var duress: Bool
    public var openedAt: EpochSeconds
    /// When and by what it closed; both nil while open.
    public var closedAt: EpochSeconds?
    public var closedBy: Closer?
    /// Why the desk closed it (only with `closedBy` `desk`).
    public var closeReason: DeskCloseReason?

    public init(
        incident: String, walker: WalkerID, state: Phase, reason: EscalationReason, level: EscalationLevel,
        duress: Bool, openedAt: EpochSeconds, closedAt: EpochSeconds? = nil, closedBy: Closer? = nil,
        closeReason: DeskCloseReason? = nil
    ) {
        self.incident = incident
        self.walker = walker
        self.state = state
        self.reason = reason
        self.level = level
        self.duress = duress
        self.openedAt = openedAt
        self.closedAt = closedAt
        self.closedBy = closedBy
        self.closeReason = closeReason
    }

    /// The same incident, closed at `at` by `closer`.
    public func closed(at: EpochSeconds, by closer: Closer?, reason: DeskCloseReason? = nil) -> IncidentState {
        var copy = self
        copy.state = .closed
        copy.closedAt = at
        copy.closedBy = closer
        copy.closeReason = closer == .desk ? reason : nil
        return copy
    }
}
