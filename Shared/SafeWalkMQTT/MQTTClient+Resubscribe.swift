import Foundation

extension MQTTClient {
    /// Asks the broker again for a filter it refused when re-subscribed after a reconnect, after
    /// `reconnectDelayMin` seconds, doubling up to `reconnectDelayMax`, for as long as the filter
    /// is wanted and refused.
    ///
    /// A refusal at the first `subscribe` throws to its caller (an ACL that denies it will deny
    /// it again: the service should fail at start). A refusal of a re-subscription has no caller,
    /// and a clustered broker gives exactly that one for a while: NATS answers SUBACK 0x80 to
    /// QoS 1 subscriptions until JetStream has re-elected its leaders after a node died
    /// (docs/SCALING.md). Without asking again the service would never hear that filter again.
    func askAgainLater(_ filter: String) {
        let refusals = state.withLock { state in
            state.refusedResubscribes[filter, default: 0] += 1
            return state.refusedResubscribes[filter]!
        }
        let delay = Self.resubscribeDelay(
            afterRefusals: refusals, min: configuration.reconnectDelayMin, max: configuration.reconnectDelayMax)
        logger.warning(
            "asking again for a refused subscription", metadata: ["filter": "\(filter)", "inSeconds": "\(delay)"])
        Task { [weak self] in
            try? await Task.sleep(for: .seconds(delay))
            self?.resubscribeIfStillRefused(filter)
        }
    }

    /// `min` after the first refusal, doubling after each further one, never above `max`.
    static func resubscribeDelay(afterRefusals refusals: Int, min: UInt32, max: UInt32) -> UInt32 {
        let doublings = UInt64(Swift.min(Swift.max(refusals - 1, 0), 16))
        return UInt32(Swift.min(UInt64(min) << doublings, UInt64(max)))  // ≤ max, a UInt32
    }

    /// Sends the SUBSCRIBE again unless the filter is no longer wanted, was granted meanwhile,
    /// is already being asked for, or the client is not connected (its next connect asks anyway).
    private func resubscribeIfStillRefused(_ filter: String) {
        state.withLock { state in
            guard state.phase == .connected, let qos = state.wantedFilters[filter],
                !state.grantedFilters.contains(filter), !state.inflightSubscribes.values.contains(filter)
            else { return }
            sendSubscribe(filter, qos: qos, state: &state)
        }
    }
}
