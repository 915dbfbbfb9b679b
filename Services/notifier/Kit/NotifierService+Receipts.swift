import Foundation
import Logging
import SafeWalkCore
import SafeWalkMQTT
import Synchronization

/// Escalation receipts (docs/CONTRACT.md, "Escalation receipts"): once an escalation is in the
/// ledger, the watchdog is told on `_escalations/received/{w}`, and stops publishing it again.
/// Every copy that arrives is answered, since the receipt of an earlier one may be what was lost.
extension NotifierService {
    /// A receipt that cannot be published is left: the watchdog's next copy asks again.
    func confirm(_ event: EscalationEvent) async {
        do {
            try await bus.publish(
                MQTTMessage(
                    topic: Topic.escalationReceived(event.walker).name(prefix: prefix),
                    payload: try SafeWalkJSON.encode(EscalationReceipt(id: event.id)), qos: .atLeastOnce))
        } catch {
            logger.warning(
                "escalation receipt not published; the watchdog will publish the escalation again",
                metadata: ["escalation": "\(event.id)", "walker": "\(event.walker)", "error": "\(error)"])
        }
    }

    /// For a copy of an escalation this process already claimed: a receipt once the ledger has
    /// it; while the first copy is still being recorded, that copy's own receipt follows.
    func confirmIfRecorded(_ event: EscalationEvent) async {
        guard (try? await ledger.knows(event.id)) == true else { return }
        await confirm(event)
    }
}

/// The escalation ids this process has taken on, so a copy arriving while the first is being
/// recorded is not admitted twice. An id whose recording failed is given up, so the watchdog's
/// next copy is admitted again instead of being dropped as a duplicate forever.
final class ClaimedEscalations: Sendable {
    private let ids: Mutex<Set<String>>

    init(_ ids: some Sequence<String>) { self.ids = Mutex(Set(ids)) }

    /// False when the id was already claimed.
    func claim(_ id: String) -> Bool { ids.withLock { $0.insert(id).inserted } }

    func release(_ id: String) { _ = ids.withLock { $0.remove(id) } }
}
