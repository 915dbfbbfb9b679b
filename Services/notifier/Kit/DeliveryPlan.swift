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

    /// Whether the device channel may alert the walker's own phone about this escalation.
    public var deviceMayKnow: Bool { hiddenFromDevice != true }

    public struct Recipient: Codable, Hashable, Sendable {
        public var contactID: String
        public var name: String
        /// E.164-style normalised number.
        public var phone: String
    }

    public struct Undialable: Codable, Hashable, Sendable {
        public var contactID: String
        /// The number as stored, masked: enough for the walker to recognise it.
        public var masked: String
        public var reason: UndialableReason
    }
}
