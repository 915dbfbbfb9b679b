/// An incident as the notifier's ladder has handled it so far, retained on `_ladder/{w}` (notifier
/// → `web`, operators; docs/CONTRACT.md). Never readable by the walker's device: it names who was
/// told and who is on it, which after a duress PIN the device must not learn. `web` serves each
/// contact's live page from it (a page's token is known here only by its digest).
public struct LadderState: Codable, Hashable, Sendable {
    var v = SchemaVersion()
    /// The incident's id (``IncidentState/incident``).
    public var incident: String
    public var walker: WalkerID
    /// `closed` once the notifier has handled the incident's end (the all-clears are on their way).
    public var state: IncidentState.Phase
    public var level: EscalationLevel
    public var reason: EscalationReason
    public var openedAt: EpochSeconds
    public var closedAt: EpochSeconds?
    /// The highest tier told so far: 1 (contacts, at once), 2 (backups), 3 (dispatch).
    public var tier: Int
    /// The acknowledgement standing now, if any (cleared when the ladder resumes).
    public var acknowledgement: LadderAcknowledgement?
    /// Everyone the incident reaches or may reach, told or not yet.
    public var recipients: [LadderRecipient]
    /// What happened, oldest first, at most ``maxTimeline`` entries (the newest kept).
    public var timeline: [LadderEntry]

    public static let maxTimeline = 100

    public init(
        incident: String, walker: WalkerID, state: IncidentState.Phase, level: EscalationLevel,
        reason: EscalationReason, openedAt: EpochSeconds, closedAt: EpochSeconds? = nil, tier: Int,
        acknowledgement: LadderAcknowledgement? = nil, recipients: [LadderRecipient], timeline: [LadderEntry]
    ) {
        self.incident = incident
        self.walker = walker
        self.state = state
        self.level = level
        self.reason = reason
        self.openedAt = openedAt
        self.closedAt = closedAt
        self.tier = tier
        self.acknowledgement = acknowledgement
        self.recipients = recipients
        self.timeline = timeline
    }
}

/// How an acknowledgement arrived.
public enum AcknowledgementChannel: String, CaseIterable, Codable, Hashable, Sendable {
    /// The "I'm on it" button of a contact's live page.
    case page
    /// A text message reply through the SMS gateway's inbound webhook.
    case sms
    /// A SafeWalk user's in-app acknowledgement (the circle).
    case app
    /// An operator of the monitoring desk (`user` is the operator's account, `walker` whose
    /// incident); only `web` sends it, for an operator signed in at `/ops`.
    case desk
}

/// "I'm on it".
public struct LadderAcknowledgement: Codable, Hashable, Sendable {
    /// The recipient's name as the walker saved it, or the SafeWalk user's id (`via: app`).
    public var by: String
    public var via: AcknowledgementChannel
    public var at: EpochSeconds

    public init(by: String, via: AcknowledgementChannel, at: EpochSeconds) {
        self.by = by
        self.via = via
        self.at = at
    }
}

/// One person (or the dispatch centre) on the ladder.
public struct LadderRecipient: Codable, Hashable, Sendable {
    /// The name the walker saved, or `dispatch`.
    public var name: String
    /// 1, 2 or 3.
    public var tier: Int
    /// The channel that reaches them (`sms-http`, `webhook`, `log`, …).
    public var channel: String
    /// Masked: never a full phone number.
    public var display: String
    /// The hex SHA-256 of this recipient's page token (``PageToken``); nil when they have no page.
    public var page: String?
    /// When they were first told; nil until their tier is reached.
    public var toldAt: EpochSeconds?
    /// The latest word on the text that told them: `sent` by the notifier, then the gateway's
    /// `delivered`, `undelivered` or `failed`.
    public var receipt: String?

    public init(
        name: String, tier: Int, channel: String, display: String, page: String? = nil,
        toldAt: EpochSeconds? = nil, receipt: String? = nil
    ) {
        self.name = name
        self.tier = tier
        self.channel = channel
        self.display = display
        self.page = page
        self.toldAt = toldAt
        self.receipt = receipt
    }
}

/// One line of an incident's timeline, written for the people following it.
public struct LadderEntry: Codable, Hashable, Sendable {
    public enum Kind: String, CaseIterable, Codable, Hashable, Sendable {
        case opened, told, reminded, raised, acknowledged, resumed, receipt, fallback, allClear
    }

    public var at: EpochSeconds
    public var kind: Kind
    public var text: String

    public init(at: EpochSeconds, kind: Kind, text: String) {
        self.at = at
        self.kind = kind
        self.text = text
    }
}
