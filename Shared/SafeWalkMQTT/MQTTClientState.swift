/// The mutable part of `MQTTClient`, only ever touched under its lock.
struct MQTTClientState {
    enum Phase: Equatable { case idle, connecting, connected, closed }

    struct Registration {
        let filter: String
        let qos: QoS
        let buffer: MessageBuffer
    }

    var phase: Phase = .idle
    /// Set once, under the lock, when the network thread starts (``MQTTClient/shutdown()`` joins it).
    var networkThreadStarted = false
    /// Callers of `waitUntilConnected`, by ticket (a cancelled one takes its own out).
    var connectWaiters: [UInt64: CheckedContinuation<Void, any Error>] = [:]
    var refusal: MQTTError?

    /// QoS 1/2 publishes waiting for PUBACK/PUBCOMP, by message id.
    var publishWaiters: [Int32: PublishWaiter] = [:]
    /// QoS 1/2 publishes made while offline, sent in order on the next connect.
    var offlinePublishes: [(ticket: UInt64, message: MQTTMessage, waiter: PublishWaiter)] = []
    var nextTicket: UInt64 = 0
    /// SUBSCRIBE packets on the wire, by message id.
    var inflightSubscribes: [Int32: String] = [:]
    /// Callers of `subscribe` waiting for the broker to grant their filter.
    var subscribeWaiters: [String: [CheckedContinuation<Void, any Error>]] = [:]
    /// Filters the broker holds for this session.
    var grantedFilters: Set<String> = []
    /// Re-subscriptions the broker refused in a row, by filter (``MQTTClient/askAgainLater(_:)``).
    var refusedResubscribes: [String: Int] = [:]

    var registrations: [UInt64: Registration] = [:]
    /// Messages no subscription wanted yet: a persistent session hands over what was queued for
    /// us right after CONNACK, before the service has subscribed again. Kept, in order, for the
    /// first subscription that matches them, instead of being lost after libmosquitto acked them.
    var unclaimed: [MQTTMessage] = []
    static let unclaimedLimit = 1_000_000
    /// Filters whose unclaimed messages are dropped instead (`discardUnclaimed(matching:)`).
    var discardedFilters: [String] = []
    var nextRegistrationID: UInt64 = 0

    /// The node of the current (or last) connection.
    var node: MQTTNode?
    var connects = 0
    var connectionLosses = 0

    /// Distinct filters with the highest QoS any registration asked for.
    var wantedFilters: [String: QoS] {
        registrations.values.reduce(into: [:]) { wanted, registration in
            wanted[registration.filter] = max(wanted[registration.filter] ?? .atMostOnce, registration.qos)
        }
    }

    /// Takes out the waiter of one publish, on the wire or parked offline, if it still waits
    /// (its caller was cancelled; resume it outside the lock).
    mutating func removeWaiter(of ticket: PublishTickets.Ticket) -> PublishWaiter? {
        switch ticket {
        case .sent(let mid): return publishWaiters.removeValue(forKey: mid)
        case .queued(let ticket):
            guard let index = offlinePublishes.firstIndex(where: { $0.ticket == ticket }) else { return nil }
            return offlinePublishes.remove(at: index).waiter
        }
    }

    /// Every waiter taken out at shutdown, to be failed outside the lock: the callers of
    /// connect and subscribe, and the publishes sent or parked.
    struct DrainedWaiters {
        var connectsAndSubscribes: [CheckedContinuation<Void, any Error>]
        var publishes: [PublishWaiter]

        func fail(_ error: any Error) {
            for caller in connectsAndSubscribes { caller.resume(throwing: error) }
            for waiter in publishes { waiter.fail(error) }
        }
    }

    /// Takes every waiter out, so they can be resumed outside the lock.
    mutating func drainAllWaiters() -> DrainedWaiters {
        let drained = DrainedWaiters(
            connectsAndSubscribes: Array(connectWaiters.values) + subscribeWaiters.values.flatMap { $0 },
            publishes: Array(publishWaiters.values) + offlinePublishes.map(\.waiter))
        connectWaiters = [:]
        subscribeWaiters = [:]
        publishWaiters = [:]
        offlinePublishes = []
        return drained
    }
}
