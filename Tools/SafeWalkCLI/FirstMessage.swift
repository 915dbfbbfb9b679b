import SafeWalkMQTT

extension MQTTSubscription {
    /// The first message `transform` accepts, or nil once `seconds` pass without one.
    /// Cancels the subscription either way: it is a one-shot wait.
    func firstAccepted<T: Sendable>(within seconds: Double, _ transform: (MQTTMessage) -> T?) async -> T? {
        let subscription = self
        let timer = Task {
            try await Task.sleep(for: .seconds(seconds))
            subscription.cancel()
        }
        defer {
            timer.cancel()
            subscription.cancel()
        }
        for await message in self {
            if let value = transform(message) { return value }
        }
        return nil
    }
}
