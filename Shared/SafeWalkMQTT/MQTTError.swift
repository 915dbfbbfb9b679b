/// Everything that can go wrong talking to the broker, with what is needed to act on it.
public enum MQTTError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The configuration cannot work (bad port, missing TLS file, ...). Fix the settings.
    case invalidConfiguration(String)
    /// A topic or filter the protocol forbids (empty, wildcard in a publish topic, bad UTF-8).
    case invalidTopic(String)
    /// The broker answered CONNECT with a refusal; retrying with the same settings will not help.
    case connectionRefused(code: Int32, reason: String)
    /// A QoS 0 publish while offline. QoS 1 and 2 are queued instead and never fail this way.
    case notConnected
    /// The broker refused a subscription (SUBACK 0x80), typically an ACL denial.
    case subscriptionRefused(filter: String)
    /// The client was shut down while the operation waited.
    case shutDown
    /// Any other libmosquitto error, with its code and text.
    case library(code: Int32, message: String)

    public var description: String {
        switch self {
        case .invalidConfiguration(let why): "invalid MQTT configuration: \(why)"
        case .invalidTopic(let topic): "invalid MQTT topic or filter: '\(topic)'"
        case .connectionRefused(let code, let reason): "broker refused the connection (\(code)): \(reason)"
        case .notConnected: "not connected to the broker"
        case .subscriptionRefused(let filter): "broker refused the subscription to '\(filter)'"
        case .shutDown: "MQTT client was shut down"
        case .library(let code, let message): "libmosquitto error \(code): \(message)"
        }
    }
}
