import Foundation
import SafeWalkCore
import Testing

/// Wire checks that every payload type must pass, behind one existential so a single
/// parameterised test can run them over all types.
protocol PayloadProbe: Sendable {
    /// Encode then decode gives back an equal value.
    func roundTrips() throws -> Bool
    /// The encoded top-level JSON object.
    func object() throws -> [String: Any]
    /// Decodes the encoded object after `edit`; nil on success, else the error.
    func decodeError(after edit: (inout [String: Any]) -> Void) throws -> PayloadError?
}

struct Probe<T: Codable & Equatable & Sendable>: PayloadProbe {
    let value: T

    func roundTrips() throws -> Bool {
        try SafeWalkJSON.decode(T.self, from: SafeWalkJSON.encode(value)) == value
    }

    func object() throws -> [String: Any] { try jsonObject(value) }

    func decodeError(after edit: (inout [String: Any]) -> Void) throws -> PayloadError? {
        var object = try object()
        edit(&object)
        return SafeWalkCoreTests.decodeError(T.self, try JSONSerialization.data(withJSONObject: object))
    }
}

let sampleFix = LocationFix(lat: 30.2849, lon: -97.7341, tst: t0, acc: 8, alt: 150, vel: 4, batt: 80)
let sampleWalk = WalkPlan(destination: "Library", eta: t0 + 720)

/// Every JSON payload in docs/CONTRACT.md, with one field it cannot do without.
enum PayloadSample: String, CaseIterable, Sendable {
    case fix, position, reply, action, status, prompt, chat, escalation
    case contactAdd, contactRemove, contactList, contactResult, alert, delivery, rejection

    var probe: any PayloadProbe {
        switch self {
        case .fix: Probe(value: sampleFix)
        case .position: Probe(value: PositionUpdate(fix: sampleFix, moved: true, lastMovedAt: t0 - 3))
        case .reply: Probe(value: Reply(text: "I'm okay 👍", quickReply: true, tst: t0))
        case .action: Probe(value: Action(id: "a1", kind: .startWalk(destination: "Library", minutes: 12)))
        case .status:
            Probe(
                value: WatchStatus(
                    state: .alert, watching: true, since: t0, nextCheckInAt: t0 + 60, reason: .panic,
                    level: .amber, walk: sampleWalk))
        case .prompt: Probe(value: CheckInPrompt(id: "p1", at: t0, replyBy: t0 + 120))
        case .chat: Probe(value: ChatMessage(id: "m1", text: "Just checking in! 🌙", tst: t0))
        case .escalation:
            Probe(
                value: EscalationEvent(
                    id: "e1", walker: walker(), reason: .noReply, level: .amber, at: t0,
                    lastFix: FixSummary(sampleFix), walk: sampleWalk))
        case .contactAdd: Probe(value: ContactAdd(name: "Mum", phone: "512-471-4441"))
        case .contactRemove: Probe(value: ContactRemove(id: "c1"))
        case .contactList: Probe(value: ContactList(contacts: [Contact(id: "c1", name: "Mum", rawPhone: "5124714441")]))
        case .contactResult: Probe(value: ContactResult(operation: .add, outcome: .ok(contactID: "c1")))
        case .alert:
            Probe(value: DeviceAlert(title: "t", body: "b", actions: [AlertAction(title: "Call", url: "tel:911")]))
        case .delivery:
            Probe(
                value: DeliveryReceipt(
                    escalationId: "e1", channel: "sms", recipient: "+*******4441", status: .failed,
                    reason: "timeout", attempts: 3, at: t0))
        case .rejection:
            Probe(
                value: Rejection(service: .locationIngest, reason: "too_old", topicKind: .fix, walker: walker(), at: t0)
            )
        }
    }

    var requiredKey: String {
        switch self {
        case .fix, .position: "lat"
        case .reply: "text"
        case .action: "id"
        case .status: "state"
        case .prompt: "replyBy"
        case .chat: "text"
        case .escalation: "walker"
        case .contactAdd: "phone"
        case .contactRemove: "id"
        case .contactList: "contacts"
        case .contactResult: "ok"
        case .alert: "actions"
        case .delivery: "escalationId"
        case .rejection: "reason"
        }
    }
}
