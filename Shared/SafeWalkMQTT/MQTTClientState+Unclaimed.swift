import Logging

extension MQTTClientState {
    mutating func keepUnclaimed(_ message: MQTTMessage, logger: Logger) {
        if discardedFilters.contains(where: { mqttTopic(message.topic, matches: $0) }) { return }
        guard unclaimed.count < Self.unclaimedLimit else {
            logger.error("dropping a message no subscription wants", metadata: ["topic": "\(message.topic)"])
            return
        }
        if unclaimed.isEmpty {
            logger.debug("holding messages until a subscription wants them", metadata: ["topic": "\(message.topic)"])
        }
        unclaimed.append(message)
    }

    /// Moves every held message matching `filter` into `buffer`, oldest first. Runs under the
    /// state lock before the registration can receive live messages, so order is kept.
    mutating func handOverUnclaimed(to buffer: MessageBuffer, filter: String) {
        guard !unclaimed.isEmpty else { return }
        var kept: [MQTTMessage] = []
        for message in unclaimed {
            if mqttTopic(message.topic, matches: filter) { buffer.append(message) } else { kept.append(message) }
        }
        unclaimed = kept
    }
}
