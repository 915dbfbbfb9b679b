import SafeWalkCore

/// How a device repeats an unanswered action: the same id every `every` seconds, until an
/// answer comes or `giveUpAfter` seconds have passed since the first publish.
public struct ActionRepeat: Sendable, Equatable {
    public var every: Double
    public var giveUpAfter: Double

    public init(every: Double = 2, giveUpAfter: Double = 60) {
        self.every = every
        self.giveUpAfter = giveUpAfter
    }
}

/// What settles an action for the device: the watchdog's `{w}/action/result`, or a refusal of
/// the action on `{w}/rejected` (a malformed action gets no result, so without this the device
/// would repeat it until the deadline for nothing).
public enum ActionAnswer: Sendable, Hashable {
    case result(ActionResult)
    case refused(InputRefusal)

    /// The action id it answers; nil when the service could not read one.
    public var id: String? {
        switch self {
        case .result(let result): result.id
        case .refused(let refusal): refusal.kind == .action ? refusal.id : nil
        }
    }

    /// Whether the action was applied.
    public var ok: Bool {
        if case .result(let result) = self { return result.ok }
        return false
    }
}

/// The repeat decision for one action, as a pure state machine: the caller tells it the time
/// and what arrived, and it says whether to publish again, wait, or stop. The watchdog applies
/// an id once and answers every repeat, so repeating is always safe; what must not happen is
/// stopping before an answer (the action may have been lost with a crashed watchdog) or
/// repeating forever.
public struct ActionRetry: Sendable, Equatable {
    public enum Step: Sendable, Equatable {
        /// Publish the action again, same id; `attempt` counts the first publish as 1.
        case publish(attempt: Int)
        /// Nothing to do before this time unless an answer arrives.
        case wait(until: EpochSeconds)
        case answered(ActionAnswer)
        /// The deadline passed without an answer.
        case gaveUp(attempts: Int)
    }

    public let id: String
    public let policy: ActionRepeat
    public private(set) var attempts = 1
    private let firstSentAt: EpochSeconds
    private var lastSentAt: EpochSeconds
    private var answer: ActionAnswer?

    /// Starts after the first publish, at `sentAt`.
    public init(id: String, sentAt: EpochSeconds, policy: ActionRepeat) {
        self.id = id
        self.policy = policy
        firstSentAt = sentAt
        lastSentAt = sentAt
    }

    private var deadline: EpochSeconds { firstSentAt + policy.giveUpAfter }

    /// Takes an answer for this action; false (and ignored) when it answers another id.
    public mutating func receive(_ answer: ActionAnswer) -> Bool {
        guard answer.id == id else { return false }
        // The first answer counts: the watchdog answers repeats with the same answer anyway.
        if self.answer == nil { self.answer = answer }
        return true
    }

    public mutating func next(at now: EpochSeconds) -> Step {
        if let answer { return .answered(answer) }
        // At the deadline, giving up wins over a repeat nobody would wait for.
        if now >= deadline { return .gaveUp(attempts: attempts) }
        let due = lastSentAt + policy.every
        guard now >= due else { return .wait(until: min(due, deadline)) }
        // Counted from now, not from `due`: after a late wake-up (a stalled machine) one repeat
        // goes out, not a burst of the ones missed.
        attempts += 1
        lastSentAt = now
        return .publish(attempt: attempts)
    }
}
