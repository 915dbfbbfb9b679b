import CompanionChatKit
import Foundation
import SafeWalkCore
import SafeWalkMQTT

enum Fixture {
    static let prefix = Topic.defaultPrefix

    static func walker(_ id: String) -> WalkerID { WalkerID(validating: id)! }

    static func reply(_ walker: String, _ text: String, quick: Bool? = nil) -> MQTTMessage {
        let payload = try! SafeWalkJSON.encode(Reply(text: text, quickReply: quick, tst: 1_700_000_000))
        return MQTTMessage(topic: Topic.reply(Self.walker(walker)).name(prefix: prefix), payload: payload)
    }

    static func prompt(_ walker: String, id: String = UUID().uuidString) -> MQTTMessage {
        let payload = try! SafeWalkJSON.encode(CheckInPrompt(id: id, at: 1_700_000_000, replyBy: 1_700_000_120))
        return MQTTMessage(topic: Topic.prompt(Self.walker(walker)).name(prefix: prefix), payload: payload)
    }

    static func raw(_ topic: String, _ json: String, retain: Bool = false) -> MQTTMessage {
        MQTTMessage(topic: topic, string: json, retain: retain)
    }

    static func chat(_ message: MQTTMessage) throws -> ChatMessage {
        try SafeWalkJSON.decode(ChatMessage.self, from: message.payload)
    }

    static func settings(
        timeout: Duration = .seconds(5), key: String? = "k", baseURL: String = "http://127.0.0.1:9",
        historyTurns: Int = 12, queueLimit: Int = 32
    ) -> CompanionChatSettings {
        CompanionChatSettings(
            gemini: GeminiConfiguration(
                apiKey: key, baseURL: baseURL, timeout: timeout,
                retry: RetryPolicy(backoff: .zero, minimumAttempt: .milliseconds(1))),
            historyTurns: historyTurns, queueLimit: queueLimit)
    }
}
