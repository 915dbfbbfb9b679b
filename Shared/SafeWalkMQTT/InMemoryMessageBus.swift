import Foundation
import Synchronization

/// A broker in a box for unit tests of service logic: same matching rules as Mosquitto,
/// retained messages, and a log of everything published.
public final class InMemoryMessageBus: MessageBus {
    private struct State {
        var subscriptions: [(filter: String, buffer: MessageBuffer)] = []
        var retained: [String: MQTTMessage] = [:]
        var published: [MQTTMessage] = []
    }

    private let state = Mutex(State())

    public init() {}

    public func publish(_ message: MQTTMessage) async throws {
        guard !message.topic.isEmpty, !message.topic.contains("+"), !message.topic.contains("#") else {
            throw MQTTError.invalidTopic(message.topic)
        }
        let buffers = state.withLock { state in
            state.published.append(message)
            if message.retain {
                state.retained[message.topic] = message.payload.isEmpty ? nil : message
            }
            state.subscriptions.removeAll { $0.buffer.isFinished }
            return state.subscriptions.filter { mqttTopic(message.topic, matches: $0.filter) }.map(\.buffer)
        }
        // As a broker does, a live delivery carries retain = false.
        var live = message
        live.retain = false
        for buffer in buffers { buffer.append(live) }
    }

    public func subscribe(_ filter: String, qos: QoS) async throws -> MQTTSubscription {
        let buffer = MessageBuffer()
        state.withLock { state in
            state.subscriptions.append((filter, buffer))
            for message in state.retained.values.sorted(by: { $0.topic < $1.topic })
            where mqttTopic(message.topic, matches: filter) {
                buffer.append(message)
            }
        }
        return MQTTSubscription(filter: filter, buffer: buffer)
    }

    /// Everything published so far, in order.
    public var published: [MQTTMessage] { state.withLock { $0.published } }

    /// Published messages whose topic matches `filter`.
    public func published(matching filter: String) -> [MQTTMessage] {
        published.filter { mqttTopic($0.topic, matches: filter) }
    }
}
