import Foundation
import Logging
import SafeWalkCore
import SafeWalkMQTT
import ServiceLifecycle

/// The whole of each executable's `main`: configuration, logging, broker connection, then the
/// service's own parts in a `ServiceGroup` that stops gracefully on SIGTERM or SIGINT.
public enum ServiceRunner {
    /// Exit codes an operator (or a supervisor) can act on.
    public enum ExitCode: Int32 {
        case configuration = 2
        case brokerRefused = 3
        /// Another instance holds the data directory and this one is not a standby.
        case anotherInstance = 4
        case failed = 1
    }

    /// Never returns: exits 0 after a graceful shutdown, or with an `ExitCode` on failure.
    /// `build` should make its subscriptions before returning: `online` is announced right
    /// after it, and tests and operators read `online` as "listening".
    public static func run(
        _ service: ServiceName,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        build: @Sendable (ServiceContext) async throws -> [any Service]
    ) async -> Never {
        let configuration: ServiceConfiguration
        do {
            configuration = try ServiceConfiguration(service: service, environment: environment)
        } catch {
            FileHandle.standardError.write(Data("\(service): configuration error: \(error)\n".utf8))
            exit(ExitCode.configuration.rawValue)
        }
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = configuration.logLevel
            return handler
        }
        var logger = Logger(label: "safewalk.\(service)")
        logger[metadataKey: "service"] = "\(service)"
        do {
            let lock = try await takeInstanceLock(configuration, logger: logger)
            try await runConnected(configuration, logger: logger, build: build)
            extendLifetime(lock)  // held until the process ends
            exit(0)
        } catch let error as InstanceLock.Held {
            logger.critical("not started", metadata: ["error": "\(error)"])
            exit(ExitCode.anotherInstance.rawValue)
        } catch let error as MQTTError {
            logger.critical("broker connection failed", metadata: ["error": "\(error)"])
            if case .connectionRefused = error { exit(ExitCode.brokerRefused.rawValue) }
            exit(ExitCode.failed.rawValue)
        } catch let error as ConfigurationError {
            logger.critical("configuration error", metadata: ["error": "\(error)"])
            exit(ExitCode.configuration.rawValue)
        } catch {
            logger.critical("service failed", metadata: ["error": "\(error)"])
            exit(ExitCode.failed.rawValue)
        }
    }

    /// The data directory's ``InstanceLock``: taken at once, or, for a standby, when the
    /// instance holding it exits. Nothing is opened or connected before it is held.
    static func takeInstanceLock(_ configuration: ServiceConfiguration, logger: Logger) async throws -> InstanceLock {
        try FileManager.default.createDirectory(at: configuration.dataDirectory, withIntermediateDirectories: true)
        let path = configuration.lockPath
        do {
            return try InstanceLock.acquire(path: path)
        } catch let held as InstanceLock.Held where configuration.standby {
            logger.notice(
                "standing by: another instance holds the data directory",
                metadata: ["lock": "\(path)", "holder": "\(held.holder.map(String.init) ?? "unknown")"])
            let started = ContinuousClock.now
            let lock = try await InstanceLock.waitToAcquire(path: path)
            logger.notice(
                "taking over: the other instance exited",
                metadata: ["lock": "\(path)", "waited": "\(ContinuousClock.now - started)"])
            return lock
        }
    }

    static func runConnected(
        _ configuration: ServiceConfiguration, logger: Logger,
        build: @Sendable (ServiceContext) async throws -> [any Service]
    ) async throws {
        let registry = MetricsSetup.bootstrap()
        var mqtt = configuration.mqtt
        mqtt.observer = BrokerMetrics(service: configuration.service, prefix: configuration.topicPrefix)
        let client = try MQTTClient(configuration: mqtt, logger: logger)
        logger.info(
            "connecting to broker",
            metadata: [
                "host": "\(configuration.mqtt.host)", "port": "\(configuration.mqtt.port)",
            ])
        try await client.connect()
        let context = ServiceContext(configuration: configuration, bus: client, logger: logger)
        let parts: [any Service]
        do {
            parts = try await build(context)
        } catch {
            await client.shutdown()
            throw error
        }
        // `online` is announced by BrokerPresence once the group runs: by then the group traps
        // SIGTERM, so a stop sent the moment a supervisor sees `online` is a clean stop, not a kill.
        let presence = BrokerPresence(
            client: client, topic: configuration.statusTopic, logger: logger, service: configuration.service)
        var observability: [any Service] = []
        if let port = configuration.metricsPort {
            observability.append(
                MetricsServer(
                    host: configuration.metricsHost, port: port, registry: registry,
                    isHealthy: { client.isConnected }, logger: logger))
        }
        var groupConfiguration = ServiceGroupConfiguration(
            services: ([presence] + observability + parts).map { .init(service: $0) },
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        // A part stuck on a broker that is gone is cancelled rather than holding the stop forever.
        groupConfiguration.maximumGracefulShutdownDuration = .seconds(10)
        let group = ServiceGroup(configuration: groupConfiguration)
        try await group.run()
    }
}
