import SafeWalkCore

/// Everything the companion says without a model, and the instruction that shapes what the
/// model says. Variants rotate per walker so repeated check-ins do not read like a robot.
public enum CompanionText {
    /// Check-ins sent on `{w}/chat` for each `{w}/prompt`; the first is the wording
    /// docs/CONTRACT.md shows.
    public static let checkIns = [
        "Just checking in! Reply if you're okay.",
        "Hey, how's the walk going? Send me a quick reply so I know you're okay.",
        "Checking in on you 👋 Tap \"I'm okay\" or tell me how you're doing.",
        "Still with you! Let me know you're alright when you get a second.",
        "Quick check-in: how are you doing? A short reply is all I need.",
    ]

    /// What the walker hears when the model cannot answer (no key, offline, blocked, …).
    /// Each one stays present, never claims to have understood, and points at the help button.
    public static let fallbacks = [
        "I'm right here with you. I can't chat much just now, but I'm keeping an eye on your walk. "
            + "If anything feels wrong, tap \"\(QuickReply.needHelp.text)\".",
        "Thanks for telling me. I'm still with you and watching your walk. "
            + "If you feel unsafe at any point, tap \"\(QuickReply.needHelp.text)\" or call 911.",
        "Got your message. I'm here and your check-ins keep running. "
            + "Stay on busy, well-lit streets, and tap \"\(QuickReply.needHelp.text)\" if you need anyone.",
    ]

    /// Gemini's `systemInstruction`: supportive, brief, safety-minded.
    public static let systemInstruction = """
        You are SafeWalk's companion, keeping someone company by chat while they walk somewhere, \
        often alone or at night. Be warm, calm and supportive. Keep every answer brief: one to three \
        short sentences, plain text, no lists or markdown. Safety comes first: if the walker mentions \
        danger, being followed, injury, feeling unsafe or being lost, tell them to tap "I need help 🚨" \
        in the app (it alerts their emergency contacts with their location) and to call 911 if they \
        are in immediate danger. Suggest staying on busy, well-lit streets and heading toward open \
        shops or people. Never discourage them from getting help, never promise that they are safe, \
        never ask for their exact location or other personal details, and do not give medical or \
        legal advice beyond urging them to get help. You are an automated companion, not a person or \
        an emergency service; say so if asked. Small talk is fine and helps: keep it light and kind.
        """

    /// Variant `index` of `variants`, wrapping around.
    static func pick(_ variants: [String], _ index: Int) -> String {
        variants[((index % variants.count) + variants.count) % variants.count]
    }

    /// `text` cut to at most `limit` characters, at a word boundary when one is near, with "…".
    static func limit(_ text: String, to limit: Int) -> String {
        guard text.count > limit, limit > 1 else { return text }
        var cut = String(text.prefix(limit - 1))
        if let space = cut.lastIndex(where: \.isWhitespace), cut.distance(from: cut.startIndex, to: space) > limit / 2 {
            cut = String(cut[..<space])
        }
        return cut + "…"
    }
}
