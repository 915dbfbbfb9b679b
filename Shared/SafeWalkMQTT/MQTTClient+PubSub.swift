import CMosquitto
import Foundation
import Synchronization

extension MQTTClient {
    /// Publishes one message. At QoS 1/2 this returns only after the broker acknowledged it; while
    /// disconnected it waits (libmosquitto re-sends on reconnect). Cancelling the task stops the
    /// wait but not the delivery already queued.
    public func publish(_ message: MQTTMessage) async throws {
        if message.qos == .atMostOnce {
            if let failure = sendAtMostOnce(message) { throw failure }
            configuration.observer?.didPublish(topic: message.topic, qos: message.qos)
            return
        }
        let tickets = PublishTickets()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                if let failure = register(message, as: .one(continuation), tickets: tickets) {
                    continuation.resume(throwing: failure)
                }
            }
        } onCancel: {
            failWaiting(tickets, with: CancellationError())
        }
        configuration.observer?.didPublish(topic: message.topic, qos: message.qos)
    }

    /// Writes a QoS 0 message, which nothing acknowledges; the error if libmosquitto refused it.
    func sendAtMostOnce(_ message: MQTTMessage) -> MQTTError? {
        let rc = message.payload.withUnsafeBytes { bytes in
            mosquitto_publish(handle, nil, message.topic, Int32(bytes.count), bytes.baseAddress, 0, message.retain)
        }
        return rc == MOSQ_ERR_SUCCESS.rawValue ? nil : MosquittoLibrary.error(rc, topic: message.topic)
    }

    /// Hands a QoS 1/2 message over with `waiter` registered for its acknowledgement and its
    /// ticket kept in `tickets`; the error if it failed at once (`waiter` is then not registered).
    /// The lock is held across mosquitto_publish and the registration of the message id, so a
    /// fast PUBACK cannot arrive before anyone waits for it.
    func register(_ message: MQTTMessage, as waiter: PublishWaiter, tickets: PublishTickets) -> MQTTError? {
        state.withLock { state in
            guard state.phase != .closed, state.phase != .idle else { return .shutDown }
            switch sendLocked(message, waiter: waiter, state: &state) {
            case .success(let ticket):
                tickets.append(ticket)
                return nil
            case .failure(let error): return error
            }
        }
    }

    /// Fails every publish of `tickets` still waiting (its caller was cancelled); what was handed
    /// over is not taken back.
    func failWaiting(_ tickets: PublishTickets, with error: any Error) {
        let waiting = state.withLock { state in tickets.all.compactMap { state.removeWaiter(of: $0) } }
        for waiter in waiting { waiter.fail(error) }
    }

    /// Hands a QoS 1/2 message to libmosquitto, or parks it until the next connect when offline
    /// (libmosquitto refuses publishes while disconnected): where it went, or why it failed. Call
    /// with the state lock held.
    func sendLocked(
        _ message: MQTTMessage, waiter: PublishWaiter,
        state: inout MQTTClientState
    ) -> Result<PublishTickets.Ticket, MQTTError> {
        var mid: Int32 = 0
        let rc = message.payload.withUnsafeBytes { bytes in
            mosquitto_publish(
                handle, &mid, message.topic, Int32(bytes.count), bytes.baseAddress,
                message.qos.rawValue, message.retain)
        }
        switch rc {
        case MOSQ_ERR_SUCCESS.rawValue:
            state.publishWaiters[mid] = waiter
            return .success(.sent(mid))
        case MOSQ_ERR_NO_CONN.rawValue:
            let ticket = state.nextTicket
            state.nextTicket += 1
            state.offlinePublishes.append((ticket, message, waiter))
            return .success(.queued(ticket))
        default:
            return .failure(MosquittoLibrary.error(rc, topic: message.topic))
        }
    }

    /// Subscribes to `filter` (wildcards allowed) and returns once the broker granted it, so a
    /// retained message published before the call is delivered to the returned sequence. While
    /// disconnected, the subscription is made on the next connect and this waits for it.
    public func subscribe(_ filter: String, qos: QoS = .atLeastOnce) async throws -> MQTTSubscription {
        guard mosquitto_sub_topic_check(filter) == MOSQ_ERR_SUCCESS.rawValue else {
            throw MQTTError.invalidTopic(filter)
        }
        let id: UInt64 = state.withLock { state in
            defer { state.nextRegistrationID += 1 }
            return state.nextRegistrationID
        }
        var onHighWaterMark: (@Sendable (Int) -> Void)?
        if let observer = configuration.observer {
            observer.didSubscribe(filter: filter)
            onHighWaterMark = { depth in observer.highWaterMarkRose(filter: filter, to: depth) }
        }
        let buffer = MessageBuffer(onHighWaterMark: onHighWaterMark) { [weak self] in self?.unregister(id) }
        do {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let failure: MQTTError? = state.withLock { state in
                    guard state.phase != .closed, state.phase != .idle else { return .shutDown }
                    state.registrations[id] = .init(filter: filter, qos: qos, buffer: buffer)
                    state.handOverUnclaimed(to: buffer, filter: filter)
                    state.subscribeWaiters[filter, default: []].append(continuation)
                    guard state.phase == .connected else { return nil }  // on_connect subscribes it
                    let rc = sendSubscribe(filter, qos: qos, state: &state)
                    if rc != MOSQ_ERR_SUCCESS.rawValue, rc != MOSQ_ERR_NO_CONN.rawValue {
                        state.subscribeWaiters[filter]?.removeLast()
                        return MosquittoLibrary.error(rc, topic: filter)
                    }
                    return nil
                }
                if let failure { continuation.resume(throwing: failure) }
            }
        } catch {
            buffer.finish()
            throw error
        }
        return MQTTSubscription(filter: filter, buffer: buffer)
    }

    /// Sends a SUBSCRIBE for `filter` and notes it in flight until its SUBACK; libmosquitto's
    /// return code. Called under the state lock (at `subscribe`, at a reconnect, asking again).
    @discardableResult
    func sendSubscribe(_ filter: String, qos: QoS, state: inout MQTTClientState) -> Int32 {
        var mid: Int32 = 0
        let rc = mosquitto_subscribe(handle, &mid, filter, qos.rawValue)
        if rc == MOSQ_ERR_SUCCESS.rawValue { state.inflightSubscribes[mid] = filter }
        return rc
    }

    /// Drops a finished subscription locally. The broker keeps the filter: it belongs to the
    /// persistent session, so messages published while this service is stopped or restarting are
    /// queued for it rather than lost. (Unsubscribing here made a clean shutdown erase the very
    /// subscriptions the session exists to keep.) Use `unsubscribe(_:)` to remove one for good.
    private func unregister(_ id: UInt64) {
        state.withLock { _ = $0.registrations.removeValue(forKey: id) }
    }

    public func discardUnclaimed(matching filter: String) {
        state.withLock { state in
            state.discardedFilters.append(filter)
            state.unclaimed.removeAll { mqttTopic($0.topic, matches: filter) }
        }
    }

    /// Removes `filter` from the broker's session and ends every local subscription to it.
    public func unsubscribe(_ filter: String) async {
        let buffers = state.withLock { state in
            let matching = state.registrations.filter { $0.value.filter == filter }
            for id in matching.keys { state.registrations.removeValue(forKey: id) }
            state.grantedFilters.remove(filter)
            if state.phase == .connected { mosquitto_unsubscribe(handle, nil, filter) }
            return matching.values.map(\.buffer)
        }
        for buffer in buffers { buffer.finish() }
    }
}

/// Where each publish of one caller went (on the wire with a message id, or parked offline),
/// shared between the publishing task and its cancellation handler.
final class PublishTickets: Sendable {
    enum Ticket {
        case sent(Int32)
        case queued(UInt64)
    }
    private let value = Mutex<[Ticket]>([])
    func append(_ ticket: Ticket) { value.withLock { $0.append(ticket) } }
    var all: [Ticket] { value.withLock { $0 } }
}
