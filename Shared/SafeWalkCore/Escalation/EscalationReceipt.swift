/// The notifier's word that an escalation is in its delivery ledger, on
/// `_escalations/received/{w}` (docs/CONTRACT.md, "Escalation receipts").
///
/// libmosquitto acknowledges a QoS 1 message as it arrives, before the service has handled it,
/// and a clustered broker can lose one in a node's failover: the broker's PUBACK to the watchdog
/// says the broker has an escalation, not that anyone will act on it. So the watchdog publishes
/// an escalation again (same id) until this receipt comes back, and the notifier, which sends
/// nothing twice for one id, answers every copy with a receipt.
public struct EscalationReceipt: Codable, Hashable, Sendable {
    var v = SchemaVersion()
    /// The escalation's id (``EscalationEvent/id``).
    public var id: String

    public init(id: String) { self.id = id }
}
