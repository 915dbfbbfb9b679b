import ArgumentParser
import Foundation
import SafeWalkCore

/// `--host --port --username --password --prefix --connect-timeout`, shared by every command
/// that talks to the broker. Unset options fall back to the SAFEWALK_* environment variables.
public struct BrokerOptions: ParsableArguments, Sendable {
    @Option(name: .long, help: "Broker host (default: $SAFEWALK_MQTT_HOST or 127.0.0.1).")
    public var host: String?

    @Option(name: .long, help: "Broker port (default: $SAFEWALK_MQTT_PORT or 1883).")
    public var port: Int?

    @Option(
        name: .long,
        help: "Broker username (default: $SAFEWALK_MQTT_USERNAME, else the walker id when the command names a walker).")
    public var username: String?

    @Option(name: .long, help: "Broker password (default: $SAFEWALK_MQTT_PASSWORD).")
    public var password: String?

    @Option(name: .long, help: "Topic prefix (default: $SAFEWALK_TOPIC_PREFIX or safewalk).")
    public var prefix: String?

    @Option(name: .customLong("connect-timeout"), help: "How long to wait for the broker before giving up.")
    public var connectTimeout: DurationValue = DurationValue(seconds: 5)

    public init() {}

    /// The settings these options select, falling back to `environment` then to defaults
    /// (`defaultUsername` last: a simulated device logs in as its walker).
    public func settings(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        defaultUsername: String? = nil
    ) throws(CLIError) -> BrokerSettings {
        func env(_ name: String) -> String? {
            guard let value = environment[name], !value.isEmpty else { return nil }
            return value
        }
        let resolvedPort: Int
        if let port {
            resolvedPort = port
        } else if let text = env("SAFEWALK_MQTT_PORT") {
            guard let value = Int(text) else {
                throw .invalidInput("SAFEWALK_MQTT_PORT must be a port number, not '\(text)'")
            }
            resolvedPort = value
        } else {
            resolvedPort = 1883
        }
        guard (1...65_535).contains(resolvedPort) else {
            throw .invalidInput("port \(resolvedPort) is out of range 1...65535")
        }
        let resolvedPrefix = prefix ?? env("SAFEWALK_TOPIC_PREFIX") ?? Topic.defaultPrefix
        guard Topic.isValidPrefix(resolvedPrefix) else {
            throw .invalidInput("'\(resolvedPrefix)' is not a valid topic prefix")
        }
        let username = username ?? env("SAFEWALK_MQTT_USERNAME") ?? defaultUsername
        let password = password ?? env("SAFEWALK_MQTT_PASSWORD")
        guard password == nil || username != nil else {
            throw .invalidInput("a password needs a username (--username or SAFEWALK_MQTT_USERNAME)")
        }
        return BrokerSettings(
            host: host ?? env("SAFEWALK_MQTT_HOST") ?? "127.0.0.1", port: resolvedPort,
            username: username, password: password, prefix: resolvedPrefix,
            connectTimeout: connectTimeout.seconds)
    }
}

/// Where the broker is and who to be there, resolved from options and environment.
public struct BrokerSettings: Hashable, Sendable {
    public var host: String
    public var port: Int
    public var username: String?
    public var password: String?
    public var prefix: String
    /// Seconds to wait for the first connection before reporting the broker unreachable.
    public var connectTimeout: Double

    public init(
        host: String = "127.0.0.1", port: Int, username: String? = nil, password: String? = nil,
        prefix: String = Topic.defaultPrefix, connectTimeout: Double = 5
    ) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.prefix = prefix
        self.connectTimeout = connectTimeout
    }
}
