import SafeWalkCore

/// Decides whether the simulated walker answers a check-in: a `checking` status or a companion
/// message that is not itself an answer to a quick reply. One answer per prompt (a prompt shows
/// up both as a status and as a chat message), and none at all once the walker has gone silent.
public struct PromptAnswerer: Sendable {
    /// A check-in as seen by the device.
    public enum Signal: Sendable, Equatable {
        case status(WatchStatus)
        case chat(ChatMessage)
    }

    public enum Decision: Sendable, Equatable {
        case answer
        /// Not a prompt, or one already answered.
        case ignore
        /// A prompt, deliberately left unanswered because the walker went silent.
        case silent
    }

    /// When the walker stops answering (nil: never).
    public let silentFrom: EpochSeconds?
    /// Signals this close to the last answer belong to the same prompt.
    public let samePromptWindow: Double
    private var lastAnswerAt: EpochSeconds?
    private var answeredStatusSince: EpochSeconds?
    private var seenChatIDs: Set<String> = []

    public init(silentFrom: EpochSeconds?, samePromptWindow: Double = 2) {
        self.silentFrom = silentFrom
        self.samePromptWindow = samePromptWindow
    }

    public func isSilent(at now: EpochSeconds) -> Bool {
        silentFrom.map { now >= $0 } ?? false
    }

    public mutating func decide(_ signal: Signal, at now: EpochSeconds) -> Decision {
        switch signal {
        case .status(let status):
            guard status.state == .checking, answeredStatusSince != status.since else { return .ignore }
            answeredStatusSince = status.since
        case .chat(let message):
            // The companion's fixed answers to quick replies are not prompts: answering them
            // would start an endless conversation with ourselves.
            guard !message.isUser, !QuickReply.catalogue.contains(where: { $0.answer == message.text }),
                seenChatIDs.insert(message.id).inserted
            else { return .ignore }
        }
        if isSilent(at: now) { return .silent }
        if let last = lastAnswerAt, now - last < samePromptWindow { return .ignore }
        lastAnswerAt = now
        return .answer
    }
}
