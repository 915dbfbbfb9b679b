import Foundation
import SafeWalkCore
import SafeWalkService
import ServiceLifecycle

/// Builds location-ingest's parts from a ``ServiceContext``.
public enum LocationIngest {
    /// Opens the store, reloads every walker's track and OwnTracks devices and returns the ingest
    /// loop, the incident follower (OwnTracks move mode), the pruner, the history compactor and the
    /// erasure responder.
    /// Subscribes before returning, so `online` on the status topic means "listening".
    public static func services(_ context: ServiceContext, stats: IngestStats = IngestStats()) async throws
        -> [any Service]
    {
        let configuration = context.configuration
        let settings = try IngestSettings(configuration: configuration)
        let store = try TrackStore.open(directory: configuration.dataDirectory, logger: context.logger)
        let tracks = try store.loadTracks()
        let wills = try store.loadWills()
        let devices = try store.loadDevices()
        context.logger.info(
            "tracks reloaded",
            metadata: [
                "walkers": "\(tracks.count)", "owntracksWills": "\(wills.count)",
                "owntracksDevices": "\(devices.count)",
            ])
        let core = IngestCore(prefix: configuration.topicPrefix, settings: settings, tracks: tracks, wills: wills)
        let reporter = RejectionReporter(
            service: .locationIngest, prefix: configuration.topicPrefix,
            bus: context.bus, logger: context.logger)
        let commander = OwnTracksCommander(bus: context.bus, store: store, logger: context.logger, devices: devices)
        if let partition = settings.partition {
            context.logger.notice("ingesting one partition of the walkers", metadata: ["partition": "\(partition)"])
        }
        let subscriptions = try await LocationIngestService.subscribe(
            bus: context.bus, prefix: configuration.topicPrefix, partition: settings.partition)
        let incidents = IncidentFollower(
            subscription: try await IncidentFollower.subscribe(bus: context.bus, prefix: configuration.topicPrefix),
            prefix: configuration.topicPrefix, commander: commander, logger: context.logger)
        let ingest = LocationIngestService(
            bus: context.bus, prefix: configuration.topicPrefix, core: core,
            store: store, reporter: reporter, stats: stats, logger: context.logger,
            subscriptions: subscriptions,
            positionInterval: .seconds(settings.positionInterval), commander: commander)
        let erasures = try await ErasureResponder.subscribe(
            bus: context.bus, prefix: configuration.topicPrefix, service: .locationIngest)
        let eraser = ErasureResponder(
            service: .locationIngest, bus: context.bus, prefix: configuration.topicPrefix,
            subscription: erasures, reporter: reporter, logger: context.logger,
            partition: settings.partition, erase: { await ingest.erase($0) })
        let pruner = HistoryPruner(
            store: store, retention: settings.retention,
            interval: .seconds(settings.pruneInterval), clock: ContinuousClock(),
            now: { Date().timeIntervalSince1970 }, logger: context.logger)
        let compactor = HistoryCompactor(
            store: store, interval: .seconds(2), clock: ContinuousClock(),
            logger: context.logger)
        return [ingest, incidents, pruner, compactor, eraser]
    }
}
