import Metrics
import SafeWalkCore
import SafeWalkMQTT
import Synchronization

/// Counts broker traffic by topic kind (`fix`, `escalation`, ...) and connection changes, as
/// `safewalk_mqtt_messages_received_total{kind}`, `safewalk_mqtt_messages_published_total{kind}`,
/// `safewalk_mqtt_reconnects_total` and `safewalk_mqtt_connection_losses_total`.
final class BrokerMetrics: MQTTObserver {
    private let service: String
    private let prefix: String
    private let received = Mutex<[String: Counter]>([:])
    private let published = Mutex<[String: Counter]>([:])
    private let connects: Counter
    private let losses: Counter

    init(service: ServiceName, prefix: String) {
        self.service = service.rawValue
        self.prefix = prefix
        connects = Counter(label: "safewalk_mqtt_connects_total", dimensions: [("service", service.rawValue)])
        losses = Counter(label: "safewalk_mqtt_connection_losses_total", dimensions: [("service", service.rawValue)])
    }

    func didReceive(topic: String, bytes: Int) {
        counter(in: received, label: "safewalk_mqtt_messages_received_total", topic: topic).increment()
    }

    func didPublish(topic: String, qos: QoS) {
        counter(in: published, label: "safewalk_mqtt_messages_published_total", topic: topic).increment()
    }

    func didConnect(sessionPresent: Bool) { connects.increment() }
    func didLoseConnection() { losses.increment() }

    /// Counters are made once per kind: the factory lookup is far dearer than an increment.
    private func counter(in cache: borrowing Mutex<[String: Counter]>, label: String, topic: String) -> Counter {
        let kind = Self.kind(of: topic, prefix: prefix)
        return cache.withLock { counters in
            if let counter = counters[kind] { return counter }
            let counter = Counter(label: label, dimensions: [("service", service), ("kind", kind)])
            counters[kind] = counter
            return counter
        }
    }

    /// The topic's kind from its shape alone. This runs on the network thread for every
    /// message, so it splits the string instead of validating it (`Topic.parse`); the services
    /// validate what they consume.
    static func kind(of topic: String, prefix: String) -> String {
        if topic.hasPrefix("owntracks/") { return TopicKind.owntracks.rawValue }
        guard topic.hasPrefix(prefix), topic.dropFirst(prefix.count).first == "/" else { return "other" }
        let rest = topic.dropFirst(prefix.count + 1)
        guard let slash = rest.firstIndex(of: "/") else { return "other" }
        switch rest[..<slash] {
        case "_service": return TopicKind.serviceStatus.rawValue
        case "_rejected": return TopicKind.rejected.rawValue
        default: return WalkerChannel(path: String(rest[rest.index(after: slash)...]))?.rawValue ?? "other"
        }
    }
}
