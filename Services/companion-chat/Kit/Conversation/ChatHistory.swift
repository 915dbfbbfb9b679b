/// The recent turns of one walker's conversation, bounded so memory per walker and the size of
/// each Gemini request stay fixed however long the walk.
public struct ChatHistory: Hashable, Sendable {
    /// Turns kept (walker and companion lines both count).
    public let maxTurns: Int
    /// Each stored line is cut to this many characters.
    public let maxTurnCharacters: Int
    public private(set) var turns: [ChatTurn] = []

    public init(maxTurns: Int, maxTurnCharacters: Int = 600) {
        self.maxTurns = max(1, maxTurns)
        self.maxTurnCharacters = max(2, maxTurnCharacters)
    }

    public mutating func append(_ turn: ChatTurn) {
        turns.append(ChatTurn(turn.speaker, CompanionText.limit(turn.text, to: maxTurnCharacters)))
        if turns.count > maxTurns { turns.removeFirst(turns.count - maxTurns) }
    }
}
