import Metrics
import SafeWalkCore
import SafeWalkMQTT
import Synchronization

/// Counts broker traffic by topic kind (`fix`, `escalation`, ...) and connection changes, as
/// `safewalk_mqtt_messages_received_total{kind}`, `safewalk_mqtt_messages_published_total{kind}`,
/// `safewalk_mqtt_reconnects_total`, `safewalk_mqtt_connection_losses_total` and
/// `safewalk_mqtt_subscriptions_refused_total` (SUBACK 0x80, first or asked again),
/// `safewalk_mqtt_node_moves_total` (reconnected to another node of a cluster), and each
/// subscription's buffer high-water mark as `safewalk_mqtt_subscription_buffer_high_water_mark{filter}`.
///
/// The high-water mark is the deepest backlog (messages received but not yet taken by the
/// consumer) any subscription on that filter has had since the process started: 0 when the service
/// subscribes, it only ever rises, and it resets only when the process restarts. A value that
/// grows means a consumer fell behind (see `MessageBuffer`: nothing is dropped, memory grows).
final class BrokerMetrics: MQTTObserver {
    private let service: String
    private let prefix: String
    private let received = Mutex<[Topic.Kind?: Counter]>([:])
    private let published = Mutex<[Topic.Kind?: Counter]>([:])
    private let highWaterMarks = Mutex<[String: (gauge: Gauge, depth: Int)]>([:])
    private let connects: Counter
    private let losses: Counter
    private let refusals: Counter
    private let moves: Counter

    init(service: ServiceName, prefix: String) {
        self.service = service.rawValue
        self.prefix = prefix
        connects = Counter(label: "safewalk_mqtt_connects_total", dimensions: [("service", service.rawValue)])
        losses = Counter(label: "safewalk_mqtt_connection_losses_total", dimensions: [("service", service.rawValue)])
        refusals = Counter(
            label: "safewalk_mqtt_subscriptions_refused_total", dimensions: [("service", service.rawValue)])
        moves = Counter(label: "safewalk_mqtt_node_moves_total", dimensions: [("service", service.rawValue)])
    }

    func didReceive(topic: String, bytes: Int) {
        counter(in: received, label: "safewalk_mqtt_messages_received_total", topic: topic).increment()
    }

    func didPublish(topic: String, qos: QoS) {
        counter(in: published, label: "safewalk_mqtt_messages_published_total", topic: topic).increment()
    }

    func didConnect(sessionPresent: Bool) { connects.increment() }
    func didLoseConnection() { losses.increment() }

    func didRefuseSubscription(filter: String) { refusals.increment() }
    func didMoveNode() { moves.increment() }

    func didSubscribe(filter: String) { highWaterMarkRose(filter: filter, to: 0) }

    /// Keeps the largest depth per filter (two subscriptions on one filter share the series);
    /// records under the lock so a smaller depth never overwrites a larger one.
    func highWaterMarkRose(filter: String, to depth: Int) {
        highWaterMarks.withLock { marks in
            if let mark = marks[filter] {
                guard depth > mark.depth else { return }
                marks[filter] = (mark.gauge, depth)
                mark.gauge.record(depth)
                return
            }
            let gauge = Gauge(
                label: "safewalk_mqtt_subscription_buffer_high_water_mark",
                dimensions: [("service", service), ("filter", filter)])
            marks[filter] = (gauge, depth)
            gauge.record(depth)
        }
    }

    /// The depth last recorded for `filter`; nil before any subscription on it.
    func highWaterMark(of filter: String) -> Int? { highWaterMarks.withLock { $0[filter]?.depth } }

    /// Counters are made once per kind: the factory lookup is far dearer than an increment.
    /// Keyed by the kind itself (nil: `other`), so a message costs one enum hash, not a string's.
    private func counter(in cache: borrowing Mutex<[Topic.Kind?: Counter]>, label: String, topic: String) -> Counter {
        let kind = Self.topicKind(of: topic, prefix: prefix)
        return cache.withLock { counters in
            if let counter = counters[kind] { return counter }
            let counter = Counter(
                label: label, dimensions: [("service", service), ("kind", kind?.rawValue ?? "other")])
            counters[kind] = counter
            return counter
        }
    }

    /// The `kind` label of a topic: ``topicKind(of:prefix:)``, or `other`.
    static func kind(of topic: String, prefix: String) -> String {
        topicKind(of: topic, prefix: prefix)?.rawValue ?? "other"
    }

    /// The topic's kind from its shape alone. This runs on the network thread for every
    /// message, so it splits the string instead of validating it (`Topic.parse`); the services
    /// validate what they consume.
    static func topicKind(of topic: String, prefix: String) -> Topic.Kind? {
        // On UTF-8 bytes, as the broker reads a topic: `Character` operations walk grapheme
        // clusters, and this runs for every message in and out (perf: most of its cost).
        let bytes = topic.utf8
        let slash = UInt8(ascii: "/")
        if bytes.starts(with: Self.owntracksLevel.utf8) { return .owntracks }
        guard bytes.starts(with: prefix.utf8), bytes.dropFirst(prefix.utf8.count).first == slash else { return nil }
        let rest = bytes.dropFirst(prefix.utf8.count + 1)
        guard let first = rest.firstIndex(of: slash), let last = rest.lastIndex(of: slash) else { return nil }
        let walkerPath = String(Substring(rest[rest.index(after: first)...]))
        // Every level that is not a walker's begins with `_` (``Topic/Kind``): a walker's topic,
        // nearly every message, is one lookup, not four (issue 22).
        guard rest.first == UInt8(ascii: "_") else { return Topic.Kind(.walker, path: walkerPath) }
        let head = String(Substring(rest[..<last]))
        return Topic.Kind(.system, path: String(Substring(rest)))
            ?? Topic.Kind(.service, path: head)
            ?? Topic.Kind(.servicesAboutWalker, path: head)
            ?? Topic.Kind(.walker, path: walkerPath)
    }

    private static let owntracksLevel = Topic.Kind.owntracks.path + "/"
}
