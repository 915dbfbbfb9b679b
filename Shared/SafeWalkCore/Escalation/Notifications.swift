/// A tappable action on a device alert: `tel:` or group `sms:` URLs.
public struct AlertAction: Codable, Hashable, Sendable {
    public var title: String
    public var url: String

    public init(title: String, url: String) {
        self.title = title
        self.url = url
    }
}

/// A notification for the walker's device (`{w}/alert`).
public struct DeviceAlert: Codable, Hashable, Sendable {
    var v = SchemaVersion()
    public var title: String
    public var body: String
    public var actions: [AlertAction]
    /// The escalation an alert for help tells of (absent on the ladder's other news). A device
    /// shows one alert per id: a notifier killed between sending it and recording it sends it
    /// again after its restart (docs/services/notifier.md).
    public var id: String?

    public init(title: String, body: String, actions: [AlertAction], id: String? = nil) {
        self.title = title
        self.body = body
        self.actions = actions
        self.id = id
    }
}

/// Whether one delivery attempt series reached its recipient.
public enum DeliveryStatus: String, CaseIterable, Hashable, Sendable, Codable { case sent, failed }

/// One receipt per channel and recipient (`{w}/delivery`).
public struct DeliveryReceipt: Codable, Hashable, Sendable {
    var v = SchemaVersion()
    /// The ``EscalationEvent/id`` this delivers.
    public var escalationId: String
    /// The channel's name, e.g. `device`, `sms`, `webhook`, `log`.
    public var channel: String
    /// Masked (see ``PhoneNumber/masked(_:)``): receipts are not a place for full numbers.
    public var recipient: String
    public var status: DeliveryStatus
    /// Why it failed; nil when sent.
    public var reason: String?
    /// How many attempts were made, including the last.
    public var attempts: Int
    public var at: EpochSeconds

    public init(
        escalationId: String, channel: String, recipient: String, status: DeliveryStatus,
        reason: String? = nil, attempts: Int, at: EpochSeconds
    ) {
        self.escalationId = escalationId
        self.channel = channel
        self.recipient = recipient
        self.status = status
        self.reason = reason
        self.attempts = attempts
        self.at = at
    }
}
