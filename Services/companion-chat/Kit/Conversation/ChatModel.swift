/// One line of a walker's conversation with the companion.
public struct ChatTurn: Hashable, Sendable {
    public enum Speaker: Hashable, Sendable { case walker, companion }

    public var speaker: Speaker
    public var text: String

    public init(_ speaker: Speaker, _ text: String) {
        self.speaker = speaker
        self.text = text
    }
}

/// The seam to a language model: Gemini in production, a scripted fake in unit tests.
public protocol ChatModel: Sendable {
    /// The companion's next line for a conversation whose last turn is the walker's.
    /// Implementations return or throw within their own timeout.
    func reply(to conversation: [ChatTurn]) async throws(ChatModelError) -> String
}
