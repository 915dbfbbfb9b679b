import Foundation
import SafeWalkCore
import SafeWalkService
import ServiceLifecycle

/// Builds web's parts from a ``ServiceContext``: the HTTP application, the erasure resumer and
/// the member directory's start-up pass.
public enum Web {
    /// The service's name on the broker (`_service/web`) and its broker login.
    public static let name = ServiceName.web

    /// `keeper` and `eraser` reach broker-admin and the erasing services (over MQTT in the service).
    public static func services(
        _ context: ServiceContext, keeper: any CredentialKeeper, eraser: any Eraser
    ) async throws -> [any Service] {
        let settings = try WebSettings(environment: context.configuration.environment)
        let database = try WebDatabase.open(directory: context.configuration.dataDirectory, logger: context.logger)
        let forgotten = try await database.forgetPending()
        for walker in forgotten {
            // A sign-up that was cut short by a stop: its broker login may or may not exist.
            context.logger.warning("unfinished sign-up forgotten", metadata: ["walker": "\(walker)"])
        }
        if settings.publicBroker.host == "localhost" {
            context.logger.notice("SAFEWALK_PUBLIC_MQTT_HOST is not set: OwnTracks set-up will name localhost")
        }
        let accounts = Accounts(
            database: database,
            passwords: PasswordWork(
                hasher: PasswordHasher(rounds: settings.passwordRounds), limit: settings.passwordQueue),
            keeper: keeper, eraser: eraser,
            members: BrokerMembers(bus: context.bus, prefix: context.configuration.topicPrefix),
            gate: RateGate(limits: settings.limits, clock: ContinuousClock()),
            settings: settings, logger: context.logger)
        let live = try await LivePages.connect(
            bus: context.bus, prefix: context.configuration.topicPrefix, database: database, settings: settings.live,
            logger: context.logger)
        if settings.live.twilioAuthToken == nil {
            context.logger.notice("SAFEWALK_TWILIO_AUTH_TOKEN is not set: the SMS gateway routes answer 404")
        }
        if settings.live.publicURL == nil {
            context.logger.notice("SAFEWALK_PUBLIC_URL is not set")
        }
        let push = try await WebPush.connect(
            bus: context.bus, prefix: context.configuration.topicPrefix, database: database, settings: settings.push,
            logger: context.logger)
        let app = AppBridge(
            broker: context.configuration.mqtt, prefix: context.configuration.topicPrefix, accounts: accounts,
            settings: settings.app, logger: context.logger)
        await app.observeRevocations()
        let desk = try await Desk.connect(
            bus: context.bus, prefix: context.configuration.topicPrefix, database: database, settings: settings.desk,
            live: live, logger: context.logger)
        return [
            SessionSweeper(accounts: accounts),
            MemberRepublisher(accounts: accounts, forgotten: forgotten.compactMap(WalkerID.init(validating:))),
            ErasureResumer(accounts: accounts), live, push, desk,
            try WebApplication.make(
                accounts: accounts, live: live, push: push, app: app, desk: desk,
                onServerRunning: { [logger = context.logger] channel in
                    // Said once the port is ours: a supervisor (or a test) can tell it from a port
                    // another process holds.
                    logger.notice(
                        "HTTP listening", metadata: ["address": "\(channel.localAddress?.description ?? "?")"])
                }),
        ]
    }
}
