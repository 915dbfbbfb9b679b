import Logging
import SafeWalkCore
import SafeWalkMQTT

/// Sends the simulated device's actions as a device must: registered with ``ActionAnswers``
/// before the first publish, then repeated with the same id as ``ActionRetry`` decides until
/// the answer comes or the deadline passes. Without a policy an action is published once and
/// not waited for (a bus with no watchdog behind it, as in unit tests of the walk).
public struct ActionSender: Sendable {
    /// An action whose first publish went out.
    public struct Sent: Sendable {
        public let action: Action
        public let at: EpochSeconds
    }

    let bus: any MessageBus
    let topic: String
    let clock: any SimulationClock
    let policy: ActionRepeat?
    let answers: ActionAnswers
    let events: @Sendable (SimulationEvent) -> Void
    let logger: Logger

    public init(
        bus: any MessageBus, walker: WalkerID, prefix: String, clock: any SimulationClock,
        policy: ActionRepeat?, answers: ActionAnswers, logger: Logger = CLILogger.make(),
        events: @escaping @Sendable (SimulationEvent) -> Void
    ) {
        self.bus = bus
        topic = Topic.action(walker).name(prefix: prefix)
        self.clock = clock
        self.policy = policy
        self.answers = answers
        self.logger = logger
        self.events = events
    }

    /// Publishes and follows until answered; nil when unanswered (or no policy).
    @discardableResult
    public func send(_ action: Action) async throws -> ActionAnswer? {
        await follow(try await publishFirst(action))
    }

    /// The first publish; its answer, whenever it comes, is reported by ``ActionAnswers``.
    public func publishFirst(_ action: Action) async throws -> Sent {
        answers.expect(action)
        try await publish(action)
        events(.actionSent(action))
        return Sent(action: action, at: clock.now())
    }

    /// Repeats `sent` until it is answered or the policy gives up.
    public func follow(_ sent: Sent) async -> ActionAnswer? {
        guard let policy else { return nil }
        let id = sent.action.id
        defer { answers.forget(id) }
        var retry = ActionRetry(id: id, sentAt: sent.at, policy: policy)
        while !Task.isCancelled {
            switch retry.next(at: clock.now()) {
            case .answered(let answer):
                return answer
            case .gaveUp(let attempts):
                logger.notice("no answer to an action", metadata: metadata(sent.action, attempts))
                events(.actionUnanswered(sent.action, attempts: attempts))
                return nil
            case .publish(let attempt):
                do {
                    try await publish(sent.action)
                    events(.actionRepeated(sent.action, attempt: attempt))
                } catch {
                    // The client reconnects by itself; the next repeat may get through.
                    logger.warning(
                        "repeating an action failed",
                        metadata: metadata(sent.action, attempt).merging(
                            ["error": "\(error)"]) { $1 })
                }
            case .wait(let until):
                if let answer = await answer(for: id, waitingUntil: until) { _ = retry.receive(answer) }
            }
        }
        return nil
    }

    /// The answer if it comes before `until` (clock time), else nil.
    private func answer(for id: String, waitingUntil until: EpochSeconds) async -> ActionAnswer? {
        let seconds = until - clock.now()
        guard seconds > 0 else { return nil }
        let (answers, clock) = (self.answers, self.clock)
        return await withTaskGroup(of: ActionAnswer?.self) { group in
            group.addTask { await answers.answer(for: id) }
            group.addTask {
                try? await clock.sleep(seconds: seconds)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    private func publish(_ action: Action) async throws {
        try await bus.publish(MQTTMessage(topic: topic, payload: try SafeWalkJSON.encode(action)))
    }

    /// What a log line may say about an action: never its PIN or note.
    private func metadata(_ action: Action, _ attempts: Int) -> Logger.Metadata {
        ["action": "\(action.kind.name)", "action_id": "\(action.id)", "attempts": "\(attempts)"]
    }
}
