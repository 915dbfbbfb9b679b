/// Hooks for metrics. Called synchronously (`didReceive` on the network thread), so keep them
/// cheap and non-blocking.
public protocol MQTTObserver: Sendable {
    func didReceive(topic: String, bytes: Int)
    func didPublish(topic: String, qos: QoS)
    func didConnect(sessionPresent: Bool)
    func didLoseConnection()
}
