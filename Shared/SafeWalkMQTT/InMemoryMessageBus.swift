import Foundation
import Synchronization

/// A broker in a box for unit tests of service logic: same matching rules as Mosquitto,
/// retained messages, and a log of everything published.
public final class InMemoryMessageBus: MessageBus {
    private struct State {
        var subscriptions: [(filter: String, buffer: MessageBuffer)] = []
        var retained: [String: MQTTMessage] = [:]
        var published: [MQTTMessage] = []
        /// While cut (``cut()``), publishes wait here, undelivered and unacknowledged.
        var isCut = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    public init() {}

    public func publish(_ message: MQTTMessage) async throws {
        guard !message.topic.isEmpty, !message.topic.contains("+"), !message.topic.contains("#") else {
            throw MQTTError.invalidTopic(message.topic)
        }
        await waitWhileCut()
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

    /// Ends every subscription to exactly `filter`, as `MQTTClient.unsubscribe` does for its own:
    /// everyone who shares this bus is one client here.
    public func unsubscribe(_ filter: String) async {
        let ended = state.withLock { state in
            defer { state.subscriptions.removeAll { $0.filter == filter } }
            return state.subscriptions.filter { $0.filter == filter }.map(\.buffer)
        }
        for buffer in ended { buffer.finish() }
    }

    /// Nothing to do: nothing here is ever held for a later subscription.
    public func discardUnclaimed(matching filter: String) {}

    /// The filters subscribed now (a finished subscription no longer counts), sorted.
    public var subscribedFilters: [String] {
        state.withLock { state in state.subscriptions.filter { !$0.buffer.isFinished }.map(\.filter).sorted() }
    }

    /// Cuts the bus as a network partition cuts a client off its broker: from now on every
    /// publish waits, neither delivered nor acknowledged, until ``heal()``.
    public func cut() { state.withLock { $0.isCut = true } }

    /// Ends a ``cut()``: the publishes that waited are delivered and acknowledged.
    public func heal() {
        let waiting = state.withLock { state in
            state.isCut = false
            defer { state.waiting = [] }
            return state.waiting
        }
        for publish in waiting { publish.resume() }
    }

    private func waitWhileCut() async {
        await withCheckedContinuation { (publish: CheckedContinuation<Void, Never>) in
            let waits = state.withLock { state in
                if state.isCut { state.waiting.append(publish) }
                return state.isCut
            }
            if !waits { publish.resume() }
        }
    }

    /// Everything published so far, in order.
    public var published: [MQTTMessage] { state.withLock { $0.published } }

    /// Published messages whose topic matches `filter`.
    public func published(matching filter: String) -> [MQTTMessage] {
        published.filter { mqttTopic($0.topic, matches: filter) }
    }
}
