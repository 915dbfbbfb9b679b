import SafeWalkCore

/// One way of delivering an escalation: the device alert, an SMS gateway, a webhook, a log.
///
/// A channel says whom it delivers to for a plan (``targets(for:)``), and makes ONE attempt
/// per call to ``send(_:plan:event:)``. Retries, backoff, idempotency, progress in SQLite and
/// receipts are the notifier's job (`DeliveryRunner`), so a new channel is only these two
/// functions. See docs/CHANNELS.md.
public protocol NotificationChannel: Sendable {
    /// A short stable name, used in `SAFEWALK_CHANNELS`, the ledger and receipts.
    var name: String { get }
    /// Whom this channel delivers to. Computed once per escalation and stored.
    func targets(for plan: DeliveryPlan) -> [DeliveryTarget]
    /// One delivery attempt to one target. Throw `.transient` to be retried with backoff,
    /// `.permanent` to fail the target at once.
    func send(_ target: DeliveryTarget, plan: DeliveryPlan, event: EscalationEvent) async throws(ChannelFailure)
}

/// One recipient of one channel.
public struct DeliveryTarget: Codable, Hashable, Sendable {
    /// Unique within the channel for an escalation (the normalised number for SMS).
    public var key: String
    /// What receipts and logs show: a masked number, the walker id, `webhook`.
    public var display: String
    /// Where to send, when the channel needs it (the normalised number for SMS).
    public var address: String?
    /// Set when the target can never be delivered (an undialable number): it gets a failed
    /// receipt with this reason and no attempt.
    public var refusal: String?

    public init(key: String, display: String, address: String? = nil, refusal: String? = nil) {
        self.key = key
        self.display = display
        self.address = address
        self.refusal = refusal
    }
}

/// Why one attempt failed. The reason goes into the receipt, so it must never hold a full
/// phone number or a secret.
public enum ChannelFailure: Error, Hashable, Sendable {
    /// Worth retrying: network errors, timeouts, HTTP 408, 429 and 5xx.
    case transient(String)
    /// Retrying cannot help: a rejected number, bad credentials, a missing configuration.
    case permanent(String)

    public var reason: String {
        switch self {
        case .transient(let reason), .permanent(let reason): reason
        }
    }
}

extension DeliveryTarget {
    /// The per-contact targets every SMS-like channel uses: dialable numbers, plus one refused
    /// target per undialable contact so its failure is reported, never silently dropped.
    public static func contacts(of plan: DeliveryPlan) -> [DeliveryTarget] {
        plan.recipients.map {
            DeliveryTarget(key: $0.phone, display: PhoneNumber.masked($0.phone), address: $0.phone)
        }
            + plan.undialable.map {
                DeliveryTarget(
                    key: "undialable:\($0.contactID)", display: $0.masked,
                    refusal: "undialable: \($0.reason.explanation)")
            }
    }
}
