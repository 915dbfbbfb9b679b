import Foundation
import Logging
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import SafeWalkStorage
import ServiceLifecycle

/// The notifier's composition root, called by the executable's `ServiceRunner.run`.
public enum Notifier {
    /// Reads the settings, opens `notifier.sqlite`, builds the enabled channels, the service and
    /// its erasure responder.
    public static func services(_ context: ServiceContext, clock: any NotifierClock = SystemNotifierClock())
        async throws
        -> [any Service]
    {
        let settings = try NotifierSettings(context.configuration.environment)
        let pool = try SQLiteStore.open(
            directory: context.configuration.dataDirectory, fileName: "notifier.sqlite",
            migrator: DeliveryLedger.migrator, logger: context.logger)
        let channels = makeChannels(
            settings, bus: context.bus, prefix: context.configuration.topicPrefix,
            logger: context.logger)
        context.logger.info("notifier channels", metadata: ["channels": "\(channels.map(\.name))"])
        let prefix = context.configuration.topicPrefix
        let service = try await NotifierService(
            settings: settings, bus: context.bus, prefix: prefix,
            ledger: DeliveryLedger(pool: pool), channels: channels, clock: clock,
            logger: context.logger, partition: context.configuration.partition)
        if let partition = context.configuration.partition {
            context.logger.notice("notifying for one partition of the walkers", metadata: ["partition": "\(partition)"])
        }
        let erasures = try await ErasureResponder.subscribe(bus: context.bus, prefix: prefix, service: .notifier)
        return [
            service,
            ErasureResponder(
                service: .notifier, bus: context.bus, prefix: prefix, subscription: erasures,
                reporter: RejectionReporter(
                    service: .notifier, prefix: prefix, bus: context.bus, logger: context.logger),
                logger: context.logger, now: { clock.now() }, partition: context.configuration.partition,
                erase: { await service.erase($0) }),
        ]
    }

    /// The channels named in `SAFEWALK_CHANNELS`, in that order.
    public static func makeChannels(
        _ settings: NotifierSettings, bus: any MessageBus, prefix: String,
        logger: Logger
    ) -> [any NotificationChannel] {
        settings.channels.compactMap { name -> (any NotificationChannel)? in
            switch name {
            case "device": DeviceChannel(bus: bus, prefix: prefix)
            case "log": LogChannel(logger: logger)
            case "sms-http": settings.sms.map { SMSHTTPChannel(configuration: $0, publicURL: settings.publicURL) }
            case "webhook":
                settings.webhook.map {
                    WebhookChannel(url: $0.url, secret: $0.secret, timeout: $0.timeout, publicURL: settings.publicURL)
                }
            default: nil
            }
        }
    }
}
