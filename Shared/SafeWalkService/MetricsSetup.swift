import Metrics
import Prometheus
import SafeWalkCore

/// Where each service serves `/metrics` unless `SAFEWALK_METRICS_PORT` says otherwise: distinct
/// defaults, so the whole stack runs on one machine without collisions.
enum MetricsSetup {
    static let defaultPorts: [ServiceName: Int] = [
        .locationIngest: 9101, .watchdog: 9102, .companionChat: 9103, .notifier: 9104, .contactsStore: 9105,
        .brokerAdmin: 9106, .web: 9107,
    ]

    /// Bootstraps swift-metrics with a Prometheus registry. Once per process.
    static func bootstrap() -> PrometheusCollectorRegistry {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        // Escalation lateness and SQLite latency matter in the 1 ms – 10 s range.
        factory.defaultDurationHistogramBuckets = [
            .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
            .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(5),
            .seconds(10),
        ]
        MetricsSystem.bootstrap(factory)
        return registry
    }

    /// `SAFEWALK_METRICS_PORT`: a port, or `off`. Nil means no endpoint.
    static func port(for service: ServiceName, environment: EnvironmentReader) throws(ConfigurationError) -> Int? {
        if environment.string("SAFEWALK_METRICS_PORT")?.lowercased() == "off" { return nil }
        return try environment.integer("SAFEWALK_METRICS_PORT", default: defaultPorts[service] ?? 9100, in: 1...65_535)
    }
}
