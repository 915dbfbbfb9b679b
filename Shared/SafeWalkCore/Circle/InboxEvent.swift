/// One event for w from someone else, on `{w}/inbox` (docs/CONTRACT.md, "The circle"). The
/// circle owner keeps each user's recent events and sends them again on `op: inbox`; `id` lets a
/// device show each once.
public struct InboxEvent: Codable, Hashable, Sendable {
    var v = SchemaVersion()
    public var id: String
    public var type: Kind
    /// Whom the event is about or from.
    public var from: WalkerID
    public var at: EpochSeconds
    /// `alert`, `ack`, `allClear`: the incident.
    public var incident: String?
    public var level: EscalationLevel?
    public var reason: EscalationReason?
    /// `alert`: the walker's preset message, if the cry carried one.
    public var note: String?
    /// `alert`, `lastKnown`: the last position the circle owner has.
    public var position: SharedPosition?
    /// `lastKnown`: whether `from` was being watched, and in which state.
    public var status: WatchState?
    /// `homeSafe`: until when.
    public var until: EpochSeconds?
    /// `seen`: who saw w's last known position. `circleNotAlerted`: why.
    public var code: String?
    /// A sentence an app may show as it is.
    public var text: String

    public enum Kind: String, Codable, CaseIterable, Hashable, Sendable {
        case followRequest, followAccepted, followDenied
        case checkInRequest, checkedIn, homeSafe
        /// Another user's escalation: w is one of their SOS contacts.
        case alert
        /// Someone is on an incident w was alerted to (or on w's own).
        case ack
        /// The incident w was alerted to is over.
        case allClear
        /// A check-in request w made went unanswered: `from`'s last known position and status.
        case lastKnown
        /// w's last known position was shown to `from` after a missed check-in request.
        case seen
        /// w's escalation reached nobody in the circle: w has no SOS contacts.
        case circleNotAlerted
    }

    public init(
        id: String, type: Kind, from: WalkerID, at: EpochSeconds, text: String, incident: String? = nil,
        level: EscalationLevel? = nil, reason: EscalationReason? = nil, note: String? = nil,
        position: SharedPosition? = nil, status: WatchState? = nil, until: EpochSeconds? = nil, code: String? = nil
    ) {
        self.id = id
        self.type = type
        self.from = from
        self.at = at
        self.text = text
        self.incident = incident
        self.level = level
        self.reason = reason
        self.note = note
        self.position = position
        self.status = status
        self.until = until
        self.code = code
    }
}
