import CMosquitto
import Foundation
import Logging

/// libmosquitto's callbacks, on its network thread. C function pointers cannot capture, so each
/// trampoline recovers the client from the user-data pointer set in `startNetworkLoop`.
extension MQTTClient {
    func installCallbacks() {
        mosquitto_connect_with_flags_callback_set(handle) { _, userData, rc, flags in
            MQTTClient.from(userData)?.inCallback { $0.didConnect(returnCode: rc, sessionPresent: flags & 1 == 1) }
        }
        mosquitto_disconnect_callback_set(handle) { _, userData, rc in
            MQTTClient.from(userData)?.inCallback { $0.didDisconnect(returnCode: rc) }
        }
        mosquitto_publish_callback_set(handle) { _, userData, mid in
            MQTTClient.from(userData)?.inCallback { $0.didAcknowledgePublish(messageID: mid) }
        }
        mosquitto_subscribe_callback_set(handle) { _, userData, mid, count, granted in
            let grants = (0..<Int(count)).map { granted?[$0] ?? 0x80 }
            MQTTClient.from(userData)?.inCallback { $0.didAcknowledgeSubscribe(messageID: mid, granted: grants) }
        }
        mosquitto_message_callback_set(handle) { _, userData, message in
            guard let message, let client = MQTTClient.from(userData) else { return }
            client.inCallback { $0.didReceive(message.pointee) }
        }
        // Only when tracing: with a log callback set libmosquitto formats a line (vsnprintf) for
        // every packet it sends or receives, which nothing reads at any other level.
        if logger.logLevel <= .trace {
            mosquitto_log_callback_set(handle) { _, userData, level, text in
                guard let text, let client = MQTTClient.from(userData) else { return }
                client.logger.trace(
                    "libmosquitto", metadata: ["level": "\(level)", "text": "\(String(cString: text))"])
            }
        }
    }

    /// Runs one callback's work, counted in ``callbacksRunning``.
    private func inCallback(_ work: (MQTTClient) -> Void) {
        callbacksRunning.add(1, ordering: .relaxed)
        defer { callbacksRunning.subtract(1, ordering: .releasing) }
        work(self)
    }

    private static func from(_ userData: UnsafeMutableRawPointer?) -> MQTTClient? {
        guard let userData else { return nil }
        return Unmanaged<MQTTClient>.fromOpaque(userData).takeUnretainedValue()
    }

    private func didConnect(returnCode: Int32, sessionPresent: Bool) {
        guard returnCode == 0 else {
            let refusal = MQTTError.connectionRefused(
                code: returnCode, reason: String(cString: mosquitto_connack_string(returnCode)))
            logger.error("broker refused the connection", metadata: ["reason": "\(refusal)"])
            let waiters = state.withLock { state in
                state.refusal = refusal
                defer { state.connectWaiters = [:] }
                return Array(state.connectWaiters.values)
            }
            for waiter in waiters { waiter.resume(throwing: refusal) }
            return
        }
        let (waiters, failed, node) = state.withLock {
            state -> (
                [CheckedContinuation<Void, any Error>], [(PublishWaiter, MQTTError)], MQTTNode?
            ) in
            guard state.phase != .closed else { return ([], [], state.node) }
            state.phase = .connected
            state.connects += 1
            if !sessionPresent { state.grantedFilters = [] }
            // The broker forgot our subscriptions (or never had some): ask again.
            for (filter, qos) in state.wantedFilters where !state.grantedFilters.contains(filter) {
                sendSubscribe(filter, qos: qos, state: &state)
            }
            // Publishes made while offline go out now, in the order they were made.
            let parked = state.offlinePublishes
            state.offlinePublishes = []
            var failed: [(PublishWaiter, MQTTError)] = []
            for entry in parked {
                if case .failure(let error) = sendLocked(entry.message, waiter: entry.waiter, state: &state) {
                    failed.append((entry.waiter, error))
                }
            }
            defer { state.connectWaiters = [:] }
            return (Array(state.connectWaiters.values), failed, state.node)
        }
        configuration.observer?.didConnect(sessionPresent: sessionPresent)
        logger.info(
            "connected to broker",
            metadata: [
                "node": "\(node.map(\.description) ?? "?")", "sessionPresent": "\(sessionPresent)",
            ])
        for waiter in waiters { waiter.resume() }
        for (waiter, error) in failed { waiter.fail(error) }
    }

    private func didDisconnect(returnCode: Int32) {
        let unexpected = state.withLock { state in
            guard state.phase == .connected || state.phase == .connecting else { return false }
            if state.phase == .connected { state.connectionLosses += 1 }
            state.phase = .connecting
            state.inflightSubscribes = [:]
            return true
        }
        if unexpected {
            configuration.observer?.didLoseConnection()
            logger.warning(
                "connection to broker lost, reconnecting",
                metadata: [
                    "reason": "\(MosquittoLibrary.message(for: returnCode))"
                ])
        }
    }

    private func didAcknowledgePublish(messageID: Int32) {
        let waiter = state.withLock { $0.publishWaiters.removeValue(forKey: messageID) }
        waiter?.succeed()
    }

    private func didAcknowledgeSubscribe(messageID: Int32, granted: [Int32]) {
        let refused = granted.contains { $0 >= 0x80 }
        let (filter, waiters): (String?, [CheckedContinuation<Void, any Error>]) = state.withLock { state in
            guard let filter = state.inflightSubscribes.removeValue(forKey: messageID) else { return (nil, []) }
            if !refused {
                state.grantedFilters.insert(filter)
                state.refusedResubscribes[filter] = nil
            }
            return (filter, state.subscribeWaiters.removeValue(forKey: filter) ?? [])
        }
        guard let filter else { return }
        if refused {
            logger.error("broker refused subscription", metadata: ["filter": "\(filter)"])
            configuration.observer?.didRefuseSubscription(filter: filter)
            // Nobody waits on a re-subscription made at a reconnect: unless asked again, the
            // subscription is dead while the service believes it listens.
            if waiters.isEmpty { askAgainLater(filter) }
            for waiter in waiters { waiter.resume(throwing: MQTTError.subscriptionRefused(filter: filter)) }
        } else {
            for waiter in waiters { waiter.resume() }
        }
    }

    private func didReceive(_ raw: mosquitto_message) {
        // libmosquitto frees the payload after we return: copy it now.
        let payload =
            raw.payloadlen > 0 && raw.payload != nil
            ? Data(bytes: raw.payload, count: Int(raw.payloadlen)) : Data()
        let message = MQTTMessage(
            topic: String(cString: raw.topic), payload: payload,
            qos: QoS(rawValue: raw.qos) ?? .atMostOnce, retain: raw.retain)
        let buffers = state.withLock { state in
            let matching = state.registrations.values.filter { mqttTopic(message.topic, matches: $0.filter) }.map(
                \.buffer)
            if matching.isEmpty { state.keepUnclaimed(message, logger: logger) }
            return matching
        }
        configuration.observer?.didReceive(topic: message.topic, bytes: payload.count)
        for buffer in buffers { buffer.append(message) }
    }
}
