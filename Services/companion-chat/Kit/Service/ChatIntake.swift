import SafeWalkCore
import SafeWalkMQTT

/// Turns a raw broker message into a walker and a ``ChatEvent``, or says why it is refused.
/// Pure, so every hostile shape is a unit test.
public enum ChatIntake {
    /// Reply text limits are not here: what a valid reply is, is ``ReplyIntake``'s to say, the
    /// same for the watchdog and for chat.
    public struct Limits: Hashable, Sendable {
        public var maxPayloadBytes: Int

        public init(maxPayloadBytes: Int = 8 * 1024) {
            self.maxPayloadBytes = maxPayloadBytes
        }
    }

    public struct Rejected: Error, Hashable, Sendable {
        /// A stable code for ``RejectionReporter``.
        public var reason: String
        public var topicKind: Topic.Kind
        public var walker: WalkerID?
    }

    public static func decode(
        _ message: MQTTMessage, prefix: String,
        limits: Limits
    ) -> Result<(WalkerID, ChatEvent), Rejected> {
        let topic = Topic.parse(message.topic, prefix: prefix)
        let kind: Topic.Kind = topic?.kind ?? (message.topic.hasSuffix("/prompt") ? .prompt : .reply)
        func reject(_ reason: String, _ walker: WalkerID? = nil) -> Result<(WalkerID, ChatEvent), Rejected> {
            .failure(Rejected(reason: reason, topicKind: kind, walker: walker))
        }
        guard let topic, let walker = topic.walker else { return reject("invalid_topic") }
        // Neither topic is retained by contract; a retained one would be replayed on every restart.
        // Only a cry for help is answered even so.
        switch topic.kind {
        case .prompt:
            guard !message.retain else { return reject("retained", walker) }
            do throws(PayloadError) {
                let prompt = try SafeWalkJSON.decode(
                    CheckInPrompt.self, from: message.payload,
                    maxBytes: limits.maxPayloadBytes)
                guard !prompt.id.isEmpty, prompt.id.count <= 128 else { return reject("invalid_prompt_id", walker) }
                return .success((walker, .prompt(prompt)))
            } catch {
                return reject(error.code, walker)
            }
        case .reply:
            switch ReplyIntake.read(message.payload, maxBytes: limits.maxPayloadBytes) {
            case .success(.cryForHelp):
                // Answered however it came (the watchdog escalates it just the same).
                return .success((walker, .reply(Reply(text: QuickReply.needHelp.text, quickReply: true, tst: 0))))
            case _ where message.retain:
                return reject("retained", walker)
            case .success(.reply(let reply)):
                return .success((walker, .reply(reply)))
            case .failure(let refusal):
                return reject(refusal.code, walker)
            }
        default:
            return reject(message.retain ? "retained" : "unexpected_topic", walker)
        }
    }
}
