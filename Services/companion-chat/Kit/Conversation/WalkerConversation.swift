import SafeWalkCore

/// What the companion does with one validated event from a walker.
public enum ChatEvent: Hashable, Sendable {
    case prompt(CheckInPrompt)
    case reply(Reply)
}

/// How a message on `{w}/chat` came about, for metrics and tests.
public enum ChatMessageKind: String, Hashable, Sendable, CaseIterable {
    case checkIn, quickReply, model, fallback
}

/// One walker's conversation state and the pure decisions on it: what to say at once, and
/// when to ask the model. The model call itself happens outside, in the walker's lane.
public struct WalkerConversation: Hashable, Sendable {
    public enum Step: Hashable, Sendable {
        /// Say this now, with no network call.
        case say(String, ChatMessageKind)
        /// Ask the model with this conversation (the walker's line last), then ``answered(_:kind:)``.
        case askModel([ChatTurn])
        /// A redelivered prompt (same id): already answered, say nothing.
        case duplicate
    }

    public private(set) var history: ChatHistory
    private var recentPromptIDs: [String] = []
    private var checkInCount = 0
    private var fallbackCount = 0

    public init(maxTurns: Int) {
        history = ChatHistory(maxTurns: maxTurns)
    }

    public mutating func step(for event: ChatEvent) -> Step {
        switch event {
        case .prompt(let prompt):
            // QoS 1 is at-least-once: a prompt may arrive twice; the walker should see one check-in.
            guard !recentPromptIDs.contains(prompt.id) else { return .duplicate }
            recentPromptIDs.append(prompt.id)
            if recentPromptIDs.count > 16 { recentPromptIDs.removeFirst() }
            let text = CompanionText.pick(CompanionText.checkIns, checkInCount)
            checkInCount += 1
            history.append(ChatTurn(.companion, text))
            return .say(text, .checkIn)
        case .reply(let reply):
            history.append(ChatTurn(.walker, reply.text))
            // Looked up by text whatever `quickReply` says, as the watchdog does: a typed
            // "I need help" gets the same answer as the chip.
            if let quick = QuickReply.lookup(reply.text) {
                history.append(ChatTurn(.companion, quick.answer))
                return .say(quick.answer, .quickReply)
            }
            return .askModel(history.turns)
        }
    }

    /// Records the model's answer, or picks a canned one when there is none.
    public mutating func answered(_ answer: String?) -> (text: String, kind: ChatMessageKind) {
        let text: String
        let kind: ChatMessageKind
        if let answer {
            (text, kind) = (answer, .model)
        } else {
            (text, kind) = (CompanionText.pick(CompanionText.fallbacks, fallbackCount), .fallback)
            fallbackCount += 1
        }
        history.append(ChatTurn(.companion, text))
        return (text, kind)
    }
}
