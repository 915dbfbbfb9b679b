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
        let settings = try WatchdogSettings(environment: configuration.environment)
        let database = try SQLiteStore.open(
            directory: configuration.dataDirectory, fileName: settings.databaseFile,
            migrator: WatchStore.migrator, logger: context.logger)
        let reporter = RejectionReporter(
            service: .watchdog, prefix: configuration.topicPrefix, bus: context.bus,
            logger: context.logger)
        let options = WatchdogService.Options(
            prefix: configuration.topicPrefix, thresholds: configuration.thresholds,
            maxPayloadBytes: settings.maxPayloadBytes)
        let service = WatchdogService(
            bus: context.bus, store: WatchStore(database: database), clock: clock,
            options: options, reporter: reporter, logger: context.logger)
        try await service.subscribeInputs()
        return [service]
    }
}
