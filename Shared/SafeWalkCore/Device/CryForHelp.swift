import Foundation

/// A call for help found in a device's `{w}/action` or `{w}/reply`, with whatever could be read
/// of the rest of the message.
public struct HelpCry: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// `needHelp`, or a reply the quick-reply catalogue maps to help.
        case needHelp
        case panic(EscalationLevel)
        /// Arms the hold-to-release switch (read generously too: the hold is how a frightened
        /// walker asks for help before anything has happened).
        case hold(EscalationLevel)
        case release
    }

    public var kind: Kind
    /// The action id when it was a usable one; nil otherwise (the cry is still taken).
    public var id: String?
    /// The preset note, when it was a usable one.
    public var note: String?
    /// What was wrong with the message and did not stop it, as stable codes (`missing_version`,
    /// `missing_id`, `invalid_level`, `invalid_note`, `not_json`, …), for the device's answer.
    public var warnings: [String]

    public init(kind: Kind, id: String? = nil, note: String? = nil, warnings: [String] = []) {
        self.kind = kind
        self.id = id
        self.note = note
        self.warnings = warnings
    }

    /// The action this cry amounts to (`id` empty when it had none).
    public var action: Action {
        let kind: Action.Kind =
            switch self.kind {
            case .needHelp: .needHelp
            case .panic(let level): .panic(level)
            case .hold(let level): .hold(level)
            case .release: .release
            }
        return Action(id: id ?? "", kind: kind, note: note)
    }
}

/// The one rule for "is this a cry for help?", shared by every reader of `{w}/action` and
/// `{w}/reply` (the watchdog, companion-chat), so they can never disagree.
///
/// Strict validation protects the system but must never swallow the one message the system
/// exists for. So a message asks for help when its action word is a help word or its reply text
/// (or quick-reply id) is the catalogue's "I need help", even if `v` is missing or wrong, `id` or
/// `tst` are missing, optional fields have the wrong type, the JSON is cut short, or the whole
/// payload is the bare word. Look-alikes are not help: "I don't need help", "helpful", "I'm okay".
public enum CryForHelp {
    /// The longest note carried with a cry; a longer one is dropped, the cry is not.
    public static let maxNoteLength = 140
    /// The longest action id kept (the strict reader refuses longer ones).
    public static let maxIDLength = 128

    /// The cry for help in `payload` received on `channel` (`.action` or `.reply`), or nil.
    public static func read(_ payload: Data, on channel: Topic.Kind) -> HelpCry? {
        guard channel == .action || channel == .reply, !payload.isEmpty else { return nil }
        let parsed = try? JSONSerialization.jsonObject(with: payload, options: [.fragmentsAllowed])
        if let object = parsed as? [String: Any] {
            return channel == .action ? fromAction(object, payload) : fromReply(object, payload)
        }
        if let word = parsed as? String { return bare(word, on: channel, warnings: ["not_an_object"]) }
        if parsed != nil { return nil }  // a number, an array, null: nothing asks for help
        // Not JSON at all: a bare word, or JSON cut short. Read what can be read.
        let text = String(decoding: payload, as: UTF8.self)
        if let cry = bare(text, on: channel, warnings: ["not_json"]) { return cry }
        return fromFragment(text, on: channel)
    }

    /// `note` if it is a usable preset message: non-empty after trimming, at most 140 characters.
    public static func usableNote(_ note: String?) -> String? {
        guard let trimmed = note?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty,
            trimmed.count <= maxNoteLength,
            !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return nil }
        return trimmed
    }

    // MARK: - The words

    /// The help kind an action word names, case and separators ignored.
    static func actionKind(_ word: String, level: EscalationLevel) -> HelpCry.Kind? {
        let key = word.lowercased().filter { $0.isLetter }
        switch key {
        case "needhelp", "help", "sos": return .needHelp
        case "panic": return .panic(level)
        case "hold": return .hold(level)
        case "release": return .release
        default: return nil
        }
    }

    static func replyIsHelp(_ text: String) -> Bool {
        QuickReply.lookup(text) == .needHelp
    }

    // MARK: - Readers

    private static func fromAction(_ object: [String: Any], _ payload: Data) -> HelpCry? {
        guard let word = object["action"] as? String else { return nil }
        var warnings = versionWarnings(object, payload)
        // A missing or unreadable level is red: over-reacting beats under-reacting.
        let named = (object["level"] as? String).flatMap { EscalationLevel(rawValue: $0.lowercased()) }
        guard let kind = actionKind(word, level: named ?? .red) else { return nil }
        switch kind {
        case .panic, .hold:
            if named == nil { warnings.append(object["level"] == nil ? "missing_level" : "invalid_level") }
        case .needHelp, .release:
            break
        }
        let id = usableID(object["id"], warnings: &warnings)
        let note = noteField(object["note"], warnings: &warnings)
        return HelpCry(kind: kind, id: id, note: note, warnings: warnings)
    }

    private static func fromReply(_ object: [String: Any], _ payload: Data) -> HelpCry? {
        let text = object["text"] as? String
        let chip = object["quickReply"] as? String
        guard text.map(replyIsHelp) == true || chip.flatMap(QuickReply.named) == .needHelp else { return nil }
        var warnings = versionWarnings(object, payload)
        if object["tst"] == nil { warnings.append("missing_tst") }
        if chip != nil { warnings.append("quick_reply_not_boolean") }
        return HelpCry(kind: .needHelp, warnings: warnings)
    }

    private static func bare(_ raw: String, on channel: Topic.Kind, warnings: [String]) -> HelpCry? {
        let word = raw.trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: "\"'")))
        guard !word.isEmpty, word.count <= 64 else { return nil }
        if channel == .action, let kind = actionKind(word, level: .red), kind != .hold(.red) {
            return HelpCry(kind: kind, warnings: warnings)
        }
        if channel == .reply, replyIsHelp(word) || QuickReply.named(word) == .needHelp {
            return HelpCry(kind: .needHelp, warnings: warnings)
        }
        return nil
    }

    /// JSON that does not parse (cut short, a stray comma): find the one field that matters.
    private static func fromFragment(_ text: String, on channel: Topic.Kind) -> HelpCry? {
        let key = channel == .action ? "action" : "text"
        if let value = quotedValue(of: key, in: text) {
            if channel == .action, let kind = actionKind(value, level: .red), kind != .hold(.red) {
                return HelpCry(
                    kind: kind, id: quotedValue(of: "id", in: text).flatMap { usableID($0) },
                    warnings: ["malformed"])
            }
            if channel == .reply, replyIsHelp(value) { return HelpCry(kind: .needHelp, warnings: ["malformed"]) }
        }
        if channel == .reply, let chip = quotedValue(of: "quickReply", in: text), QuickReply.named(chip) == .needHelp {
            return HelpCry(kind: .needHelp, warnings: ["malformed"])
        }
        return nil
    }

    /// The string value of `"key": "value"` in broken JSON (no escapes inside the value).
    private static func quotedValue(of key: String, in text: String) -> String? {
        for pair in text.matches(of: #/"(\w+)"\s*:\s*"([^"\\]{0,200})"/#) where pair.output.1 == key {
            return String(pair.output.2)
        }
        return nil
    }

    /// `v` must be the integer 1; anything else is noted, never a reason to drop the cry. Read
    /// with the strict ``SchemaVersion`` (JSONSerialization cannot tell `true` from `1` on Linux).
    private static func versionWarnings(_ object: [String: Any], _ payload: Data) -> [String] {
        struct Probe: Decodable { var v: SchemaVersion }
        if object["v"] == nil { return ["missing_version"] }
        return (try? SafeWalkJSON.sharedDecoder.decode(Probe.self, from: payload)) == nil ? ["unsupported_version"] : []
    }

    private static func usableID(_ value: Any?, warnings: inout [String]) -> String? {
        guard let value else {
            warnings.append("missing_id")
            return nil
        }
        guard let id = usableID(value as? String) else {
            warnings.append("invalid_id")
            return nil
        }
        return id
    }

    /// `text` if it can serve as an action id: 1 to ``maxIDLength`` characters, no control
    /// character (a newline would split the watchdog's stored list). The one rule for every
    /// reader of action ids: the strict decoder, a cry read generously, a refusal's answer.
    public static func usableID(_ text: String?) -> String? {
        guard let text, !text.isEmpty, text.count <= maxIDLength,
            !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return nil }
        return text
    }

    private static func noteField(_ value: Any?, warnings: inout [String]) -> String? {
        guard let value else { return nil }
        guard let note = usableNote(value as? String) else {
            warnings.append("invalid_note")
            return nil
        }
        return note
    }
}
