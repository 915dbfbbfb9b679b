import SafeWalkCore
import SafeWalkMQTT

/// Turns a raw broker message into a walker and a ``ChatEvent``, or says why it is refused.
/// Pure, so every hostile shape is a unit test.
public enum ChatIntake {
    public struct Limits: Hashable, Sendable {
        public var maxPayloadBytes: Int
        public var maxReplyCharacters: Int

        public init(maxPayloadBytes: Int = 8 * 1024, maxReplyCharacters: Int = 1000) {
            self.maxPayloadBytes = maxPayloadBytes
            self.maxReplyCharacters = maxReplyCharacters
        }
    }

    public struct Rejected: Error, Hashable, Sendable {
        /// A stable code for ``RejectionReporter``.
        public var reason: String
        public var topicKind: TopicKind
        public var walker: WalkerID?
    }

    public static func decode(_ message: MQTTMessage, prefix: String,
                              limits: Limits) -> Result<(WalkerID, ChatEvent), Rejected> {
        let topic = Topic.parse(message.topic, prefix: prefix)
        let kind: TopicKind = topic?.kind ?? (message.topic.hasSuffix("/prompt") ? .prompt : .reply)
        func reject(_ reason: String, _ walker: WalkerID? = nil) -> Result<(WalkerID, ChatEvent), Rejected> {
            .failure(Rejected(reason: reason, topicKind: kind, walker: walker))
        }
        guard let topic, let walker = topic.walker else { return reject("invalid_topic") }
        // Neither topic is retained by contract; a retained one would be replayed on every restart.
        guard !message.retain else { return reject("retained", walker) }
        do throws(PayloadError) {
            switch topic {
            case .prompt:
                let prompt = try SafeWalkJSON.decode(CheckInPrompt.self, from: message.payload, maxBytes: limits.maxPayloadBytes)
                guard !prompt.id.isEmpty, prompt.id.count <= 128 else { return reject("invalid_prompt_id", walker) }
                return .success((walker, .prompt(prompt)))
            case .reply:
                var reply = try SafeWalkJSON.decode(Reply.self, from: message.payload, maxBytes: limits.maxPayloadBytes)
                reply.text = clean(reply.text)
                guard !reply.text.isEmpty else { return reject("empty_text", walker) }
                guard reply.text.count <= limits.maxReplyCharacters else { return reject("text_too_long", walker) }
                return .success((walker, .reply(reply)))
            default:
                return reject("unexpected_topic", walker)
            }
        } catch {
            return reject(error.code, walker)
        }
    }

    /// Control characters (other than line breaks) become spaces; ends are trimmed.
    static func clean(_ text: String) -> String {
        let scalars = text.unicodeScalars.map { scalar -> Unicode.Scalar in
            scalar.properties.generalCategory == .control && scalar != "\n" ? " " : scalar
        }
        var cleaned = String(String.UnicodeScalarView(scalars))
        cleaned = cleaned.trimmingCharacters(in: .whitespacesAndNewlines)
        return cleaned
    }
}
