/// What a quick reply does to the watch. Every effect answers a pending check-in
/// (docs/CONTRACT.md: any reply answers it); none ends a watch or cancels another rule (only `stop` and
/// `arrived` end a watch).
public enum QuickReplyEffect: Hashable, Sendable {
    /// "I'm okay 👍", "Almost home": the check-in is answered; everything else keeps running.
    case answersCheckIn
    /// "Feeling nervous": answered, but the walker is uneasy. Nothing is silenced: movement,
    /// walk and later check-ins still apply; the watchdog may prompt sooner, never later.
    case answersCheckInWithConcern
    /// "I need help 🚨": escalate at once with this reason.
    case escalate(EscalationReason)
}

/// A quick reply with its fixed companion answer (sent without any network call) and its
/// safety effect, applied by the watchdog from this same catalogue.
public struct QuickReply: Hashable, Sendable {
    /// The chip's stable id (`okay`, `almostHome`, `nervous`, `needHelp`): what a client that
    /// sends `"quickReply": "needHelp"` instead of `true` names.
    public var id: String
    public var text: String
    public var answer: String
    public var effect: QuickReplyEffect

    public static let okay = QuickReply(
        id: "okay", text: "I'm okay 👍",
        answer: "Glad to hear it! I'll keep checking in while you walk.",
        effect: .answersCheckIn)
    public static let almostHome = QuickReply(
        id: "almostHome", text: "Almost home",
        answer: "Nearly there! Tap Arrived once you're safely inside.",
        effect: .answersCheckIn)
    public static let nervous = QuickReply(
        id: "nervous", text: "Feeling nervous",
        answer: "I'm right here with you. Stay on busy, well-lit streets. "
            + "If anything feels wrong, tap \"I need help\" and your contacts will be alerted.",
        effect: .answersCheckInWithConcern)
    public static let needHelp = QuickReply(
        id: "needHelp", text: "I need help 🚨",
        answer: "I'm alerting your emergency contacts with your location now. "
            + "If you are in danger, call 911.",
        effect: .escalate(.needHelp))

    /// The catalogue, in the order the app shows it.
    public static let catalogue: [QuickReply] = [okay, almostHome, nervous, needHelp]

    /// The entry for a reply's text, or nil for free text.
    ///
    /// Matching compares only words: letter case, whitespace runs, typographic apostrophes
    /// (’ for '), punctuation and emoji (with skin tones, ZWJ, variation selectors U+FE0E/
    /// U+FE0F) are ignored. So a typed "I need help!" escalates just like the chip; a false
    /// alarm is far cheaper than a missed one. Extra words make it free text.
    public static func lookup(_ text: String) -> QuickReply? {
        let key = matchKey(text)
        return catalogue.first { matchKey($0.text) == key }
    }

    /// The entry whose id or text `name` is (`needHelp`, `"I need help 🚨"`), compared as
    /// ``lookup(_:)`` compares text, so `need_help` or `NEEDHELP` find it too.
    public static func named(_ name: String) -> QuickReply? {
        let key = matchKey(name.replacingOccurrences(of: "_", with: "").replacingOccurrences(of: "-", with: ""))
        return catalogue.first { matchKey($0.id) == key } ?? lookup(name)
    }

    static func matchKey(_ text: String) -> String {
        var words: [String] = []
        var word = ""
        for scalar in text.unicodeScalars {
            if scalar == "'" || scalar == "\u{2019}" {
                word.append("'")
            } else if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                word.unicodeScalars.append(scalar)
            } else if scalar.properties.isWhitespace, !word.isEmpty {
                words.append(word)
                word = ""
            }  // anything else (punctuation, emoji, selectors) is dropped without splitting words
        }
        if !word.isEmpty { words.append(word) }
        return words.joined(separator: " ").lowercased()
    }
}
