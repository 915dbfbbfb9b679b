import Foundation
import SafeWalkCore
import SafeWalkMQTT

/// Validates what arrives from the broker: everything is hostile until proven otherwise.
/// Pure, so every rejection path is unit-tested without a broker.
public enum NotifierIntake {
    public static let maxEscalationBytes = 16 * 1024
    public static let maxContactsBytes = 64 * 1024
    /// More contacts than anyone texts in an emergency; a longer list is refused, not truncated.
    public static let maxContacts = 50

    public enum Input: Sendable, Hashable {
        case escalation(EscalationEvent)
        case contacts(WalkerID, [Contact]?)
    }

    /// Why an input was refused: a stable code for the rejection report, and the walker if known.
    public struct Refusal: Error, Sendable, Hashable {
        public var code: String
        public var walker: WalkerID?
        public var kind: Topic.Kind
    }

    public static func classify(_ message: MQTTMessage, prefix: String) -> Result<Input, Refusal> {
        let topic = Topic.parse(message.topic, prefix: prefix)
        switch (topic?.kind, topic?.walker) {
        case (.escalation?, let walker?):
            let event: EscalationEvent
            do {
                event = try SafeWalkJSON.decode(
                    EscalationEvent.self, from: message.payload, maxBytes: maxEscalationBytes)
            } catch {
                return .failure(Refusal(code: error.code, walker: walker, kind: .escalation))
            }
            guard event.walker == walker else {
                return .failure(Refusal(code: "walker_mismatch", walker: walker, kind: .escalation))
            }
            guard isValidID(event.id) else {
                return .failure(Refusal(code: "invalid_id", walker: walker, kind: .escalation))
            }
            return .success(.escalation(event))
        case (.contacts?, let walker?):
            // An empty retained message clears the list.
            if message.payload.isEmpty { return .success(.contacts(walker, nil)) }
            do {
                let list = try SafeWalkJSON.decode(ContactList.self, from: message.payload, maxBytes: maxContactsBytes)
                guard list.contacts.count <= maxContacts else {
                    return .failure(Refusal(code: "too_many_contacts", walker: walker, kind: .contacts))
                }
                return .success(.contacts(walker, list.contacts))
            } catch {
                return .failure(Refusal(code: error.code, walker: walker, kind: .contacts))
            }
        default:
            return .failure(Refusal(code: "unexpected_topic", walker: nil, kind: .escalation))
        }
    }

    /// Ids are idempotency keys and SQLite keys.
    static func isValidID(_ id: String) -> Bool { MessageKey.isValid(id) }
}
