import Foundation
import Logging
import SafeWalkCore
import SafeWalkMQTT

/// The settings every service shares (README, "Configuration"; the safety thresholds are part of
/// the contract, docs/CONTRACT.md, "Shared settings"). Service-specific
/// settings are read by each service from `environment` with the same prefix.
public struct ServiceConfiguration: Sendable {
    public var service: ServiceName
    public var mqtt: MQTTConfiguration
    public var topicPrefix: String
    public var dataDirectory: URL
    public var thresholds: SafetyThresholds
    public var logLevel: Logger.Level
    /// `/metrics` and `/health` (`SAFEWALK_METRICS_HOST`, `SAFEWALK_METRICS_PORT`); nil port = off.
    public var metricsHost: String
    public var metricsPort: Int?
    /// `SAFEWALK_STANDBY`: when another instance holds this service's data directory
    /// (``InstanceLock``), wait and take over when it exits, instead of refusing to start.
    public var standby: Bool
    /// `SAFEWALK_PARTITIONS` / `SAFEWALK_PARTITION`: the partition of the walkers this instance
    /// serves on a cluster (nil: one instance). Its status topic ends in the partition, so each
    /// instance reports for itself (``statusTopic``).
    public var partition: WalkerPartition?
    /// Everything, for service-specific settings.
    public var environment: EnvironmentReader

    public init(service: ServiceName, environment values: [String: String]) throws(ConfigurationError) {
        let env = EnvironmentReader(values)
        self.service = service
        self.environment = env
        topicPrefix = env.string("SAFEWALK_TOPIC_PREFIX", default: Topic.defaultPrefix)
        guard Topic.isValidPrefix(topicPrefix) else {
            throw .invalid(
                name: "SAFEWALK_TOPIC_PREFIX", value: topicPrefix,
                expected: "topic levels without wildcards, not starting with 'owntracks'")
        }
        dataDirectory = URL(fileURLWithPath: env.string("SAFEWALK_DATA_DIR", default: "./data"), isDirectory: true)
        thresholds = SafetyThresholds(
            checkInInterval: try env.seconds("SAFEWALK_CHECKIN_INTERVAL", default: 60),
            noReplyAfter: try env.seconds("SAFEWALK_NO_REPLY_AFTER", default: 120),
            noMovementAfter: try env.seconds("SAFEWALK_NO_MOVEMENT_AFTER", default: 120),
            movementMeters: try env.positiveNumber(
                "SAFEWALK_MOVEMENT_METERS", default: 5, expected: "metres greater than 0"),
            offlineGrace: try env.seconds("SAFEWALK_OFFLINE_GRACE", default: 60),
            holdHeartbeat: try env.seconds("SAFEWALK_HOLD_HEARTBEAT", default: 3),
            wrongPinLimit: try env.integer("SAFEWALK_PIN_ATTEMPTS", default: 3, in: 1...20))
        let levelName = env.string("SAFEWALK_LOG_LEVEL", default: "info")
        guard let level = Logger.Level(rawValue: levelName.lowercased()) else {
            throw .invalid(
                name: "SAFEWALK_LOG_LEVEL", value: levelName,
                expected: Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))
        }
        logLevel = level
        standby = try env.boolean("SAFEWALK_STANDBY", default: false)
        metricsHost = env.string("SAFEWALK_METRICS_HOST", default: "127.0.0.1")
        metricsPort = try MetricsSetup.port(for: service, environment: env)
        partition = try env.walkerPartition()
        if partition != nil, !ServiceName.partitioned.contains(service) {
            throw .invalid(
                name: "SAFEWALK_PARTITIONS", value: env.string("SAFEWALK_PARTITIONS") ?? "",
                expected: "1 or unset: \(service) is one instance for every walker (docs/SCALING.md)")
        }
        mqtt = try Self.mqtt(
            service: service, status: Self.statusTopic(service, partition, prefix: topicPrefix), env: env)
    }

    /// `{prefix}/_service/{name}`, or `{prefix}/_service/{name}/{K}` for partition K's instance.
    static func statusTopic(_ service: ServiceName, _ partition: WalkerPartition?, prefix: String) -> String {
        let topic = Topic.serviceStatus(service).name(prefix: prefix)
        return partition.map { topic + "/" + $0.level } ?? topic
    }

    private static func mqtt(service: ServiceName, status: String, env: EnvironmentReader) throws(ConfigurationError)
        -> MQTTConfiguration
    {
        var tls: MQTTConfiguration.TLS?
        if let ca = env.string("SAFEWALK_MQTT_TLS_CA") {
            tls = .init(
                caFile: ca, certificateFile: env.string("SAFEWALK_MQTT_TLS_CERT"),
                keyFile: env.string("SAFEWALK_MQTT_TLS_KEY"))
        }
        // If this service dies without a clean disconnect, the broker tells everyone.
        let will = MQTTMessage(
            topic: status,
            payload: Presence.offline.payload, qos: .atLeastOnce, retain: true)
        var failover: [MQTTNode] = []
        if let text = env.string("SAFEWALK_MQTT_FAILOVER") {
            guard let nodes = MQTTNode.list(text) else {
                throw .invalid(
                    name: "SAFEWALK_MQTT_FAILOVER", value: text,
                    expected: "host:port pairs separated by commas ([address]:port for IPv6)")
            }
            failover = nodes
        }
        return MQTTConfiguration(
            host: env.string("SAFEWALK_MQTT_HOST", default: "127.0.0.1"),
            port: try env.integer("SAFEWALK_MQTT_PORT", default: 1883, in: 1...65_535),
            clientID: env.string("SAFEWALK_MQTT_CLIENT_ID", default: "safewalk-\(service)"),
            username: env.string("SAFEWALK_MQTT_USERNAME", default: service.rawValue),
            password: env.string("SAFEWALK_MQTT_PASSWORD"),
            keepAliveSeconds: Int32(
                try env.integer("SAFEWALK_MQTT_KEEPALIVE", default: Self.keepAliveSeconds, in: 2...600)),
            tls: tls, lastWill: will, failover: failover)
    }

    /// A connection that went silent (a broker node cut off by a network partition: no reset, no
    /// error) is noticed only by the keep-alive: a ping after this long with nothing heard, and
    /// the connection given up one keep-alive later. At libmosquitto's usual 30 s the services
    /// stayed on a partitioned node for up to a minute (docs/SCALING.md, "A network partition").
    public static let keepAliveSeconds = 10

    /// This service's ``InstanceLock`` file.
    public var lockPath: String { InstanceLock.path(in: dataDirectory, service: service.rawValue) }

    /// The retained topic where this instance reports `online` / `offline`.
    public var statusTopic: String { Self.statusTopic(service, partition, prefix: topicPrefix) }
}
