/// Why the monitoring desk closed an incident (docs/CONTRACT.md, "The monitoring desk").
public enum DeskCloseReason: String, CaseIterable, Codable, Hashable, Sendable {
    case resolved
    case falseAlarm
    case handedToPolice

    /// The words people read (texts, the walker's alert, the desk's board).
    public var words: String {
        switch self {
        case .resolved: "resolved"
        case .falseAlarm: "false alarm"
        case .handedToPolice: "handed to police"
        }
    }
}

/// `_desk/close` (`web` → watchdog): an operator of the desk closes a walker's open incident. Only
/// `web` may write the topic (mosquitto/acl), and only for an operator signed in at `/ops`; no
/// device can. The watchdog ends the incident as the walker's own `imSafe` would and answers on
/// `_desk/result` with the same `id`.
public struct DeskClose: Codable, Hashable, Sendable {
    var v = SchemaVersion()
    /// Chosen by `web` (1 to 128 printable ASCII characters); the answer carries it.
    public var id: String
    public var walker: WalkerID
    /// The incident the operator saw (`_incidents/{w}`): a close never ends a later one.
    public var incident: String
    public var reason: DeskCloseReason
    /// Why, in the operator's words (at most ``DeskCloseRule/maxNoteBytes``); required to close a
    /// duress incident as a false alarm.
    public var note: String?
    /// The operator's account name.
    public var `operator`: String
    public var at: EpochSeconds

    public init(
        id: String, walker: WalkerID, incident: String, reason: DeskCloseReason, note: String? = nil,
        operator: String, at: EpochSeconds
    ) {
        self.id = id
        self.walker = walker
        self.incident = incident
        self.reason = reason
        self.note = note
        self.operator = `operator`
        self.at = at
    }
}

/// The watchdog's answer to a ``DeskClose`` (`_desk/result`).
public struct DeskCloseResult: Codable, Hashable, Sendable {
    public enum Failure: String, CaseIterable, Codable, Hashable, Sendable {
        /// The walker has no open incident with that id (already closed, or a later one is open).
        case notOpen
        /// A duress incident closed as a false alarm needs a note.
        case noteRequired
        /// The request could not be read, but its id could.
        case refused
    }

    var v = SchemaVersion()
    public var id: String
    public var ok: Bool
    public var error: Failure?
    public var walker: WalkerID?
    public var incident: String?

    public init(id: String, ok: Bool, error: Failure? = nil, walker: WalkerID? = nil, incident: String? = nil) {
        self.id = id
        self.ok = ok
        self.error = error
        self.walker = walker
        self.incident = incident
    }
}

/// The one rule for what a desk close needs, checked by `web` before it asks and by the watchdog,
/// which decides.
public enum DeskCloseRule {
    /// A note is a few sentences, not a document.
    public static let maxNoteBytes = 1_000

    /// Why `reason` with `note` may not close an incident that is (or is not) a duress one; nil
    /// when it may. A duress incident means someone may have been forcing the walker: calling it
    /// a false alarm must be explained.
    public static func refusal(reason: DeskCloseReason, note: String?, duress: Bool) -> DeskCloseResult.Failure? {
        let written = note.map { !$0.allSatisfy(\.isWhitespace) } ?? false
        if duress, reason == .falseAlarm, !written { return .noteRequired }
        return nil
    }

    /// Whether `note` is usable at all: bounded, no control characters but line breaks.
    public static func isUsableNote(_ note: String) -> Bool {
        note.utf8.count <= maxNoteBytes
            && note.unicodeScalars.allSatisfy { $0 == "\n" || !($0.properties.generalCategory == .control) }
    }
}
