import Foundation
import SafeWalkCore
import SafeWalkMQTT

extension WebPush {
    /// Size limits (bytes) before a payload is parsed: the senders' own limits for these payloads.
    static let maxPromptBytes = 4_096
    static let maxAlertBytes = 16_384
    static let maxInboxBytes = 16_384

    func receive(_ message: MQTTMessage) async {
        let at = now().timeIntervalSince1970
        // None of these topics is retained: a retained one would be pushed again at every start.
        guard !message.retain, !message.payload.isEmpty else { return }
        guard let topic = Topic.parse(message.topic, prefix: prefix), let walker = topic.walker,
            [.prompt, .alert, .inbox].contains(topic.kind)
        else {
            await reporter.reject(reason: "unexpected_topic", topicKind: .inbox, now: at)
            return
        }
        let input: PushTriggers.Input
        do {
            input = try Self.read(message.payload, kind: topic.kind)
        } catch {
            await reporter.reject(reason: error.code, topicKind: topic.kind, walker: walker, now: at)
            return
        }
        if let id = Self.id(of: input), !seen.withLock({ $0.insert("\(walker)/\(topic.kind.rawValue)/\(id)") }) {
            return  // a repeat
        }
        guard let push = PushTriggers.message(for: input, now: at) else { return }
        enqueue(push, for: walker)
    }

    static func read(_ payload: Data, kind: Topic.Kind) throws(PayloadError) -> PushTriggers.Input {
        switch kind {
        case .prompt: .prompt(try SafeWalkJSON.decode(CheckInPrompt.self, from: payload, maxBytes: maxPromptBytes))
        case .alert: .alert(try SafeWalkJSON.decode(DeviceAlert.self, from: payload, maxBytes: maxAlertBytes))
        default: .inbox(try SafeWalkJSON.decode(InboxEvent.self, from: payload, maxBytes: maxInboxBytes))
        }
    }

    /// What makes a message the same message again (an alert has no id: its tag collapses repeats).
    static func id(of input: PushTriggers.Input) -> String? {
        switch input {
        case .prompt(let prompt): prompt.id
        case .inbox(let event): event.id
        case .alert: nil
        }
    }
}
