import Logging
import SafeWalkService
import SafeWalkStorage
import ServiceLifecycle

/// Builds the watchdog's parts from a ``ServiceContext``; the executable's whole job.
public enum Watchdog {
    public static func services(_ context: ServiceContext, clock: any WatchClock = SystemWatchClock()) async throws
        -> [any Service]
    {
        let configuration = context.configuration
        let settings = try WatchdogSettings(environment: configuration.environment, partition: configuration.partition)
        let database = try SQLiteStore.open(
            directory: configuration.dataDirectory, fileName: settings.databaseFile,
            migrator: WatchStore.migrator, logger: context.logger)
        let reporter = RejectionReporter(
            service: .watchdog, prefix: configuration.topicPrefix, bus: context.bus,
            logger: context.logger)
        let options = WatchdogService.Options(
            prefix: configuration.topicPrefix, thresholds: configuration.thresholds,
            maxPayloadBytes: settings.maxPayloadBytes, walkStallAfter: settings.walkStallAfter,
            positionWriteDelay: settings.positionWriteDelay, sentMarkDelay: settings.sentMarkDelay,
            receiptWait: settings.receiptWait,
            brokerLink: settings.brokerCutAfter > 0 ? BrokerLink.Settings(cutAfter: settings.brokerCutAfter) : nil,
            partition: settings.partition)
        let service = WatchdogService(
            bus: context.bus, store: WatchStore(database: database), clock: clock,
            options: options, reporter: reporter, logger: context.logger)
        if let partition = settings.partition {
            context.logger.notice("watching one partition of the walkers", metadata: ["partition": "\(partition)"])
        }
        try await service.subscribeInputs()
        // Last in the list, so the group stops it first: no erasure waits on a stopped loop.
        let erasure = ErasureResponder(
            service: .watchdog, bus: context.bus, prefix: configuration.topicPrefix,
            subscription: try await ErasureResponder.subscribe(
                bus: context.bus, prefix: configuration.topicPrefix, service: .watchdog),
            reporter: reporter, logger: context.logger, partition: settings.partition, erase: service.erase)
        return [service, erasure]
    }
}
