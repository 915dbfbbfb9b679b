import Foundation
import SafeWalkCore

/// Every topic a SafeWalk service subscribes to, i.e. every way input reaches a service.
/// (The watchdog also reads `{w}/position`, which only location-ingest may write; a hostile
/// position means a compromised or buggy ingest, and the watchdog must survive it too.)
public enum InputKind: String, CaseIterable, Sendable, Hashable, Comparable {
    case fix, owntracks, presence, reply, action, position, prompt, escalation, contacts, contactsAdd, contactsRemove

    /// The topic for `walkerLevel`, which may be anything (hostile topics use invalid ids on
    /// purpose, which is why this does not go through ``Topic``). `device` is the OwnTracks level.
    public func topic(walkerLevel: String, device: String = "phone", prefix: String = Topic.defaultPrefix) -> String {
        switch self {
        case .owntracks: "owntracks/\(walkerLevel)/\(device)"
        default: "\(prefix)/\(walkerLevel)/\(channel.path)"
        }
    }

    /// The per-walker channel of every kind but OwnTracks (`fix` stands in for it).
    public var channel: Topic.Kind {
        switch self {
        case .fix, .owntracks: .fix
        case .presence: .presence
        case .reply: .reply
        case .action: .action
        case .position: .position
        case .prompt: .prompt
        case .escalation: .escalation
        case .contacts: .contacts
        case .contactsAdd: .contactsAdd
        case .contactsRemove: .contactsRemove
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// How a hostile payload was made, for labels, statistics and per-family checks.
public enum HostileFamily: String, CaseIterable, Sendable, Hashable {
    case truncation, typeSwap, missingField, numberAsString, hugeNumber, nonFinite, deepNesting
    case longString, oversize, invalidUTF8, wrongVersion, notAnObject, handMade, hostileTopic
}

/// One hostile message: where it goes and its exact bytes.
public struct HostileCase: Sendable, Hashable {
    public var kind: InputKind
    public var family: HostileFamily
    /// What was done, e.g. `typeSwap lat→"x"`: for failure messages, never parsed.
    public var label: String
    public var topic: String
    public var payload: Data

    public init(kind: InputKind, family: HostileFamily, label: String, topic: String, payload: Data) {
        self.kind = kind
        self.family = family
        self.label = label
        self.topic = topic
        self.payload = payload
    }
}
