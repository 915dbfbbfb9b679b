/// The topics that exist once per walker, under `{prefix}/{w}/`.
public enum WalkerChannel: String, CaseIterable, Sendable, Codable {
    case fix, presence, reply, action, position, status, prompt, chat, escalation
    case contactsAdd, contactsRemove, contacts, contactsResult, alert, delivery
    /// `{w}/action/result`: the watchdog's answer to each action, once it is durably recorded.
    case actionResult
    /// `{w}/rejected`: what a service refused of this walker's own input, and why.
    case inputRejected

    /// The levels after the walker id, e.g. `contacts/add`.
    public var path: String {
        switch self {
        case .contactsAdd: "contacts/add"
        case .contactsRemove: "contacts/remove"
        case .contactsResult: "contacts/result"
        case .actionResult: "action/result"
        case .inputRejected: "rejected"
        default: rawValue
        }
    }

    /// The channel whose ``path`` is `path`, if any.
    public init?(path: String) {
        guard let match = Self.allCases.first(where: { $0.path == path }) else { return nil }
        self = match
    }
}

/// Every kind of topic, as a stable code for logs, metrics and ``Rejection``.
/// Walker kinds share their names with ``WalkerChannel``.
public enum TopicKind: String, CaseIterable, Sendable, Codable {
    case fix, presence, reply, action, position, status, prompt, chat, escalation
    case contactsAdd, contactsRemove, contacts, contactsResult, alert, delivery
    case actionResult, inputRejected
    case rejected, serviceStatus, owntracks

    /// The kind of a per-walker channel.
    public init(_ channel: WalkerChannel) {
        // Same raw values by construction; the test suite checks every case.
        self = TopicKind(rawValue: channel.rawValue)!
    }
}
