import SafeWalkCore

/// Times messages that must reach several recipients: from a message's send to the arrival of
/// its last expected copy, which is when everyone who should see it has. Pure, so its counting is
/// tested on its own (BenchmarkTests).
struct FanOutTracker<Key: Hashable & Sendable, Recipient: Hashable & Sendable>: Sendable {
    private var pending: [Key: (sentAt: ContinuousClock.Instant, waiting: Set<Recipient>)] = [:]
    /// Send → last copy, seconds, one per message every recipient got.
    private(set) var samples: [Double] = []
    /// Copies for a message not sent, already complete, or to someone it was not for (a QoS 1
    /// duplicate included): none is expected.
    private(set) var unexpected = 0

    init() {}

    /// Messages still waiting for at least one copy (at the end of a run: missed).
    var missing: Int { pending.count }

    mutating func sent(_ key: Key, to recipients: Set<Recipient>, at instant: ContinuousClock.Instant) {
        guard !recipients.isEmpty else { return }
        pending[key] = (instant, recipients)
    }

    /// Records one copy; returns the message's latency when it was the last one expected.
    @discardableResult
    mutating func arrived(_ key: Key, at recipient: Recipient, at instant: ContinuousClock.Instant) -> Double? {
        guard var entry = pending[key], entry.waiting.remove(recipient) != nil else {
            unexpected += 1
            return nil
        }
        guard entry.waiting.isEmpty else {
            pending[key] = entry
            return nil
        }
        pending[key] = nil
        let latency = (instant - entry.sentAt).seconds
        samples.append(latency)
        return latency
    }
}
