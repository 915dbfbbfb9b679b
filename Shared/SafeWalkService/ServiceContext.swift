import Logging
import SafeWalkMQTT

/// What a service's builder gets: its configuration, a connected bus, and a logger.
public struct ServiceContext: Sendable {
    public let configuration: ServiceConfiguration
    public let bus: any MessageBus
    public let logger: Logger

    public init(configuration: ServiceConfiguration, bus: any MessageBus, logger: Logger) {
        self.configuration = configuration
        self.bus = bus
        self.logger = logger
    }
}
