import Foundation
import SafeWalkBrokerPolicy
import SafeWalkCore
import SafeWalkService
import ServiceLifecycle

/// Builds `broker-admin`'s parts for ``ServiceRunner``: the broker's account backend (on
/// Mosquitto the plugin connection, which reads the plugin's answers; on NATS the users file) and
/// the service, both subscribed before `online`.
public enum BrokerAdmin {
    public static func services(_ context: ServiceContext) async throws -> [any Service] {
        let configuration = context.configuration
        let settings = try BrokerAdminSettings(environment: configuration.environment)
        let prefix = configuration.topicPrefix
        var parts: [any Service] = []
        let backend: any DynamicSecurity
        switch try AdminBroker(environment: configuration.environment) {
        case .mosquitto:
            let plugin = try await PluginConnection(
                bus: context.bus, timeout: settings.pluginTimeout, logger: context.logger)
            parts.append(plugin)
            backend = plugin
        case .nats:
            backend = try natsDirectory(context)
        }
        let service = BrokerAdminService(
            bus: context.bus, plugin: backend,
            sweeper: RetainedSweeper(bus: context.bus, quiet: settings.retainedQuiet),
            reporter: RejectionReporter(
                service: .brokerAdmin, prefix: prefix, bus: context.bus, logger: context.logger),
            prefix: prefix, admin: configuration.mqtt.username ?? ServiceName.brokerAdmin.rawValue,
            logger: context.logger,
            subscriptions: try await BrokerAdminService.subscribe(bus: context.bus, prefix: prefix))
        return parts + [service]
    }

    /// The NATS users file's keeper, from `SAFEWALK_NATS_*` and the ACL file.
    static func natsDirectory(_ context: ServiceContext) throws -> NATSUserDirectory {
        let configuration = context.configuration
        let settings = try NATSAccountSettings(environment: configuration.environment)
        let acl: BrokerACL
        do {
            acl = try BrokerACL(parsing: try String(contentsOf: settings.aclFile, encoding: .utf8))
        } catch {
            throw ConfigurationError.invalid(
                name: "SAFEWALK_ACL_FILE", value: settings.aclFile.path, expected: "a readable broker ACL (\(error))")
        }
        context.logger.notice(
            "keeping the logins of a NATS cluster",
            metadata: ["usersFile": "\(settings.usersFile.path)", "nodes": "\(settings.nodes)"])
        return try NATSUserDirectory(
            store: try NATSDirectoryStore.open(directory: configuration.dataDirectory, logger: context.logger),
            file: NATSUsersFile(path: settings.usersFile, acknowledgements: settings.acknowledgements),
            acl: acl, settings: settings, logger: context.logger)
    }
}
