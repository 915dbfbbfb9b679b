import SafeWalkCore
import SafeWalkService
import ServiceLifecycle

/// Builds contacts-store's parts from a ``ServiceContext``.
public enum ContactsStore {
    /// Subscribes before returning, so `online` on the status topic means "listening".
    public static func services(_ context: ServiceContext) async throws -> [any Service] {
        let configuration = context.configuration
        let database = try ContactsDatabase.open(directory: configuration.dataDirectory, logger: context.logger)
        let directory = try await ContactsDirectory(
            rules: try ContactRules(configuration: configuration), database: database)
        let reporter = RejectionReporter(
            service: .contactsStore, prefix: configuration.topicPrefix,
            bus: context.bus, logger: context.logger)
        let subscriptions = try await ContactsStoreService.subscribe(
            bus: context.bus, prefix: configuration.topicPrefix)
        let erasures = try await ErasureResponder.subscribe(
            bus: context.bus, prefix: configuration.topicPrefix, service: .contactsStore)
        let service = ContactsStoreService(
            bus: context.bus, prefix: configuration.topicPrefix, directory: directory,
            reporter: reporter, logger: context.logger, subscriptions: subscriptions)
        return [
            service,
            ErasureResponder(
                service: .contactsStore, bus: context.bus, prefix: configuration.topicPrefix,
                subscription: erasures, reporter: reporter, logger: context.logger, erase: { await service.erase($0) }),
        ]
    }
}
