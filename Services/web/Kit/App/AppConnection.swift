import Foundation
import SafeWalkCore
import SafeWalkMQTT
import Synchronization

/// One session login's connection to the broker, shared by that session's tabs: its messages go
/// to every open stream; the last message of each retained topic is kept and replayed to a
/// stream that joins later (the broker sends retained messages only at subscription).
final class AppConnection: Sendable {
    let login: SessionLogin
    let client: MQTTClient
    private let prefix: String
    private let state = Mutex(State())

    private struct State {
        var streams: [UUID: AsyncStream<AppEvent>.Continuation] = [:]
        /// Topic → the last message's event, for retained kinds only.
        var retained: [String: AppEvent] = [:]
        var connected = true
        var closed = false
    }

    init(login: SessionLogin, client: MQTTClient, prefix: String) {
        self.login = login
        self.client = client
        self.prefix = prefix
    }

    /// A new stream: `bridge connected` (or `reconnecting`) and the retained messages first,
    /// then every message as it comes. Nil once the connection is closed.
    func attach() -> (UUID, AsyncStream<AppEvent>)? {
        let (events, continuation) = AsyncStream.makeStream(of: AppEvent.self, bufferingPolicy: .bufferingNewest(256))
        let id = UUID()
        let attached = state.withLock { state in
            guard !state.closed else { return false }
            continuation.yield(.bridge(connected: state.connected))
            for topic in state.retained.keys.sorted() { continuation.yield(state.retained[topic]!) }
            state.streams[id] = continuation
            return true
        }
        return attached ? (id, events) : nil
    }

    func detach(_ id: UUID) {
        state.withLock { $0.streams.removeValue(forKey: id) }?.finish()
    }

    /// One message from the broker on one of the session's filters.
    func deliver(_ message: MQTTMessage) {
        guard let name = AppTopics.eventName(of: message.topic, walker: login.user, prefix: prefix) else { return }
        let event = AppEvent.message(name: name, payload: message.payload)
        state.withLock { state in
            if AppEvent.isRetained(name) {
                state.retained[message.topic] = message.payload.isEmpty ? nil : event
            }
            for stream in state.streams.values { stream.yield(event) }
        }
    }

    /// The broker link dropped (`false`) or came back (`true`).
    func bridge(connected: Bool) {
        state.withLock { state in
            guard state.connected != connected else { return }
            state.connected = connected
            for stream in state.streams.values { stream.yield(.bridge(connected: connected)) }
        }
    }

    /// Ends every stream; the client is shut down by the caller.
    func close() {
        let streams = state.withLock { state in
            state.closed = true
            defer { state.streams = [:] }
            return Array(state.streams.values)
        }
        streams.forEach { $0.finish() }
    }
}

/// Tells a connection that its client lost or regained the broker (an ``MQTTObserver`` is given
/// to the client before the connection exists, hence the late binding).
final class BridgeSignals: MQTTObserver {
    private let target = Mutex<AppConnection?>(nil)

    func bind(_ connection: AppConnection) { target.withLock { $0 = connection } }

    func didReceive(topic: String, bytes: Int) {}
    func didPublish(topic: String, qos: QoS) {}
    func didConnect(sessionPresent: Bool) { target.withLock { $0 }?.bridge(connected: true) }
    func didLoseConnection() { target.withLock { $0 }?.bridge(connected: false) }
}
