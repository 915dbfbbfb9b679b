import Logging
import SafeWalkCore
import SafeWalkMQTT

/// Publishes `_ladder/{w}` (retained, QoS 1) in revision order: two steps of one ladder committed
/// in one order may finish publishing in the other, and the older state must not be the one left
/// retained.
actor LadderPublisher {
    let bus: any MessageBus
    let prefix: String
    let logger: Logger
    private var last: [WalkerID: (incident: String, revision: Int)] = [:]

    init(bus: any MessageBus, prefix: String, logger: Logger) {
        self.bus = bus
        self.prefix = prefix
        self.logger = logger
    }

    func publish(_ published: LadderEngine.Published) async {
        let state = published.state
        if let seen = last[state.walker], seen.incident == state.incident, seen.revision >= published.revision {
            return
        }
        last[state.walker] = (state.incident, published.revision)
        do {
            try await bus.publish(
                Topic.ladder(state.walker).name(prefix: prefix), payload: SafeWalkJSON.encode(state),
                qos: .atLeastOnce, retain: true)
        } catch {
            // The next step publishes the whole state again; a restart republishes open ones.
            logger.warning(
                "ladder state not published",
                metadata: ["walker": "\(state.walker)", "incident": "\(state.incident)", "error": "\(error)"])
        }
    }

    /// An erasure: the retained state is cleared with an empty message.
    func clear(_ walker: WalkerID) async throws {
        last[walker] = nil
        try await bus.publish(
            Topic.ladder(walker).name(prefix: prefix), payload: .init(), qos: .atLeastOnce, retain: true)
    }
}
