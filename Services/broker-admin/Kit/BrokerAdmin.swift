import SafeWalkCore
import SafeWalkService
import ServiceLifecycle

/// Builds `broker-admin`'s parts for ``ServiceRunner``: the plugin connection (which reads the
/// plugin's answers) and the service, both subscribed before `online`.
public enum BrokerAdmin {
    public static func services(_ context: ServiceContext) async throws -> [any Service] {
        let configuration = context.configuration
        let settings = try BrokerAdminSettings(environment: configuration.environment)
        let prefix = configuration.topicPrefix
        let plugin = try await PluginConnection(
            bus: context.bus, timeout: settings.pluginTimeout, logger: context.logger)
        let service = BrokerAdminService(
            bus: context.bus, plugin: plugin, sweeper: RetainedSweeper(bus: context.bus, quiet: settings.retainedQuiet),
            reporter: RejectionReporter(
                service: .brokerAdmin, prefix: prefix, bus: context.bus, logger: context.logger),
            prefix: prefix, admin: configuration.mqtt.username ?? ServiceName.brokerAdmin.rawValue,
            logger: context.logger,
            subscriptions: try await BrokerAdminService.subscribe(bus: context.bus, prefix: prefix))
        return [plugin, service]
    }
}
