/// "I'm on it" from outside the notifier (`_acks/request`, `web` → notifier): a page's button or a
/// text message reply. The notifier decides which incident and recipient it is, and answers on
/// `_acks/result` with the same `id`.
public struct AcknowledgementRequest: Codable, Hashable, Sendable {
    var v = SchemaVersion()
    /// Chosen by the sender (1...128 printable ASCII characters); the answer carries it.
    public var id: String
    public var via: AcknowledgementChannel
    /// `page`: the hex SHA-256 of the page's token (never the token itself).
    public var page: String?
    /// `sms`: the sender's number as the gateway gave it.
    public var phone: String?
    /// `sms`: the incident's short code when the reply carried one ("OK 4821").
    public var code: String?
    /// `app`: the SafeWalk user who is on it, an SOS contact of `walker` (the circle owner checked).
    public var user: WalkerID?
    /// `app`: whose open incident.
    public var walker: WalkerID?
    public var at: EpochSeconds

    public init(
        id: String, via: AcknowledgementChannel, page: String? = nil, phone: String? = nil,
        code: String? = nil, user: WalkerID? = nil, walker: WalkerID? = nil, at: EpochSeconds
    ) {
        self.id = id
        self.via = via
        self.page = page
        self.phone = phone
        self.code = code
        self.user = user
        self.walker = walker
        self.at = at
    }
}

/// The notifier's answer to an ``AcknowledgementRequest`` (`_acks/result`).
public struct AcknowledgementResult: Codable, Hashable, Sendable {
    public enum Failure: String, CaseIterable, Codable, Hashable, Sendable {
        /// No recipient of any incident matches (a dead page, or a number that was never told).
        case unknownRecipient
        /// The incident matched is closed: the walker is safe.
        case closed
        /// The request could not be read, but its id could.
        case refused
        /// A text reply without the incident's code, while several notifier instances each keep
        /// the incidents of their own walkers (docs/SCALING.md, "The notifier partitioned"):
        /// which incident told the number is not one instance's to say. The sender is asked to
        /// reply with the code their text carried.
        case codeNeeded
    }

    var v = SchemaVersion()
    public var id: String
    public var ok: Bool
    public var error: Failure?
    public var walker: WalkerID?
    public var incident: String?
    /// Who stands as acknowledging now: the requester, or whoever was first.
    public var by: String?

    public init(
        id: String, ok: Bool, error: Failure? = nil, walker: WalkerID? = nil, incident: String? = nil,
        by: String? = nil
    ) {
        self.id = id
        self.ok = ok
        self.error = error
        self.walker = walker
        self.incident = incident
        self.by = by
    }
}

/// A delivery report from the SMS gateway (`_receipts/gateway`, `web` → notifier), read by `web`
/// from a status callback whose signature it checked (Twilio's `StatusCallback`).
public struct GatewayReceipt: Codable, Hashable, Sendable {
    var v = SchemaVersion()
    /// The reference the notifier put in the callback URL (`ref=`), naming one text it sent.
    public var ref: String
    /// The gateway's word, lower-cased: `queued`, `sent`, `delivered`, `undelivered`, `failed`, …
    public var status: String
    /// The gateway's error code, when it gave one (Twilio's `ErrorCode`).
    public var errorCode: String?
    public var at: EpochSeconds

    public init(ref: String, status: String, errorCode: String? = nil, at: EpochSeconds) {
        self.ref = ref
        self.status = status
        self.errorCode = errorCode
        self.at = at
    }

    /// Whether the text is known not to have reached the phone.
    public var isFailure: Bool { status == "failed" || status == "undelivered" }
}
