import SafeWalkCore

/// Everything the channels deliver for one escalation, built once and stored with it, so a
/// restart delivers exactly the plan that was started (not one rebuilt from newer contacts).
public struct DeliveryPlan: Codable, Hashable, Sendable {
    /// Amber panic asks contacts to keep an eye on the walker; everything else is help now.
    public enum Urgency: String, Codable, Hashable, Sendable { case helpNow, keepAnEye }

    public var escalationId: String
    public var walker: WalkerID
    public var urgency: Urgency
    /// The help message for contacts: who, why, when, where (or that no position is known).
    public var message: String
    /// The notification for the walker's own device.
    public var alert: DeviceAlert
    /// Dialable contacts, normalised, without duplicate numbers, in list order.
    public var recipients: [Recipient]
    /// Contacts that cannot be texted, with the reason; they never remove the others.
    public var undialable: [Undialable]
    /// True when the walker's device must not hear of this escalation (a duress PIN raised it,
    /// ``DeviceDisclosure``): no device alert, no receipts on `{w}/delivery`. Absent in plans
    /// stored before it existed, which were all visible.
    public var hiddenFromDevice: Bool?

    /// The channels this job goes out on (a ladder step reaches some of them: tier 2 is texts
    /// only); nil, as in every plan stored before the ladder, is all of them.
    public var channels: [String]?
    /// The incident's short reply code ("Reply OK 4821"), on texts that ask for an answer.
    public var code: String?
    /// False for a ladder step after the escalation (tier 2, reminders, acknowledgement,
    /// all-clear, fallback): its receipts are not published on `{w}/delivery`, which the walker's
    /// device reads. Nil, as in every plan stored before the ladder, is true.
    public var deviceReceipts: Bool?
    public var receiptsOnDevice: Bool { deviceReceipts != false }
    /// The dispatch webhook's own page token: its body carries only this page, never another's.
    public var dispatchPage: String?

    /// Whether the device channel may alert the walker's own phone about this escalation.
    public var deviceMayKnow: Bool { hiddenFromDevice != true }

    /// Whether `channel` takes part in this job.
    public func reaches(_ channel: String) -> Bool { channels?.contains(channel) ?? true }

    public struct Recipient: Codable, Hashable, Sendable {
        public var contactID: String
        public var name: String
        /// E.164-style normalised number.
        public var phone: String
        /// Their live page's token (a secret: never logged, never in another's message).
        public var page: String?
        /// The reference in this text's status callback, naming it in a gateway receipt.
        public var ref: String?
    }

    public struct Undialable: Codable, Hashable, Sendable {
        public var contactID: String
        /// The number as stored, masked: enough for the walker to recognise it.
        public var masked: String
        public var reason: UndialableReason
    }
}
