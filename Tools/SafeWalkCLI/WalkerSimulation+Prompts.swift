import Foundation
import SafeWalkCore
import SafeWalkMQTT
import Synchronization

/// Answering check-ins: a quick reply to each prompt until the walker goes silent.
extension WalkerSimulation {
    func answer(
        _ subscription: MQTTSubscription, decide signal: @escaping @Sendable (Data) -> PromptAnswerer.Signal?,
        _ answerer: AnswererBox
    ) async {
        for await message in subscription {
            guard let signal = signal(message.payload) else { continue }
            let now = clock.now()
            switch answerer.decide(signal, at: now) {
            case .ignore: continue
            case .silent: events(.leftUnanswered)
            case .answer:
                let reply = Reply(text: QuickReply.okay.text, quickReply: true, tst: now)
                guard let payload = try? SafeWalkJSON.encode(reply) else { continue }
                do {
                    try await bus.publish(
                        MQTTMessage(
                            topic: Topic.reply(settings.walker).name(prefix: settings.prefix),
                            payload: payload))
                    events(.answered(reply))
                } catch {
                    continue  // shutting down
                }
            }
        }
    }
}

/// One answerer shared by the chat and status listeners, so a prompt seen on both is answered once.
final class AnswererBox: Sendable {
    private let answerer: Mutex<PromptAnswerer>
    init(_ answerer: PromptAnswerer) { self.answerer = Mutex(answerer) }
    func decide(_ signal: PromptAnswerer.Signal, at now: EpochSeconds) -> PromptAnswerer.Decision {
        answerer.withLock { $0.decide(signal, at: now) }
    }
}
