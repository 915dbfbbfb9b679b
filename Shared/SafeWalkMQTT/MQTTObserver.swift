/// Hooks for metrics. Called synchronously (`didReceive` on the network thread), so keep them
/// cheap and non-blocking.
public protocol MQTTObserver: Sendable {
    func didReceive(topic: String, bytes: Int)
    func didPublish(topic: String, qos: QoS)
    func didConnect(sessionPresent: Bool)
    func didLoseConnection()
    /// A subscription was made on `filter`; its buffer's high-water mark starts at 0.
    func didSubscribe(filter: String)
    /// The deepest backlog of a subscription on `filter` grew to `depth` messages (called on
    /// the network thread, once per new maximum).
    func highWaterMarkRose(filter: String, to depth: Int)
    /// The broker refused a subscription to `filter` (SUBACK 0x80), first or asked again.
    func didRefuseSubscription(filter: String)
    /// A lost connection was made again to another node of a clustered broker.
    func didMoveNode()
}

extension MQTTObserver {
    public func didSubscribe(filter: String) {}
    public func highWaterMarkRose(filter: String, to depth: Int) {}
    public func didRefuseSubscription(filter: String) {}
    public func didMoveNode() {}
}
