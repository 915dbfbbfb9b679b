import Foundation

/// MQTT quality of service. `atLeastOnce` is what SafeWalk uses for everything that matters.
public enum QoS: Int32, Sendable, Comparable, CaseIterable {
    case atMostOnce = 0
    case atLeastOnce = 1
    case exactlyOnce = 2

    public static func < (lhs: QoS, rhs: QoS) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One message as it crossed the broker. The payload is an owned copy: libmosquitto frees its
/// own buffer as soon as the callback returns.
public struct MQTTMessage: Sendable, Equatable {
    public var topic: String
    public var payload: Data
    public var qos: QoS
    public var retain: Bool

    public init(topic: String, payload: Data, qos: QoS = .atLeastOnce, retain: Bool = false) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
    }

    public init(topic: String, string: String, qos: QoS = .atLeastOnce, retain: Bool = false) {
        self.init(topic: topic, payload: Data(string.utf8), qos: qos, retain: retain)
    }

    /// The payload as UTF-8 text, or nil when it is not valid UTF-8.
    public var string: String? { String(data: payload, encoding: .utf8) }
}
