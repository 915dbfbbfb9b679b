import SafeWalkCore
import SafeWalkService
import ServiceLifecycle

/// Builds contacts-store's parts from a ``ServiceContext``.
public enum ContactsStore {
    /// Subscribes before returning, so `online` on the status topic means "listening".
    public static func services(_ context: ServiceContext, clock: any ServiceClock = SystemServiceClock()) async throws
        -> [any Service]
    {
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
        let circle = try await Self.circle(context, database: database, reporter: reporter, clock: clock)
        return [
            service,
            circle,
            ErasureResponder(
                service: .contactsStore, bus: context.bus, prefix: configuration.topicPrefix,
                subscription: erasures, reporter: reporter, logger: context.logger,
                erase: { walker in
                    // The circle first: a failure there leaves the contacts for the retry.
                    guard await circle.erase(walker) else { return .storeError }
                    return await service.erase(walker)
                }),
        ]
    }

    /// The circle (docs/CONTRACT.md, "The circle"), in the same SQLite file.
    static func circle(
        _ context: ServiceContext, database: ContactsDatabase, reporter: RejectionReporter, clock: any ServiceClock
    ) async throws -> CircleService {
        let configuration = context.configuration
        let settings = try CircleSettings(configuration: configuration)
        let store = CircleStore(pool: database.pool, settings: settings)
        let graph = try await store.loadGraph()
        let subscriptions = try await CircleService.subscribe(bus: context.bus, prefix: configuration.topicPrefix)
        return CircleService(
            bus: context.bus, prefix: configuration.topicPrefix, store: store, graph: graph, settings: settings,
            clock: clock, reporter: reporter, logger: context.logger, subscriptions: subscriptions)
    }
}
