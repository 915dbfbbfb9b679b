import Foundation
import Logging
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import ServiceLifecycle

/// Brings the plugin to ``PluginPolicy``, then answers `_accounts/command` on `_accounts/result`
/// and carries out broker-admin's part of each erasure asked on `_accounts/erase/broker-admin`,
/// reported on `_accounts/erased/broker-admin`. The decisions are ``AccountIntake``,
/// ``AccountPlan`` and ``PluginPolicy``; this is the IO around them.
public struct BrokerAdminService: Service {
    let bus: any MessageBus
    let plugin: any DynamicSecurity
    let sweeper: RetainedSweeper
    let reporter: RejectionReporter
    let prefix: String
    /// The admin login (`SAFEWALK_MQTT_USERNAME`), whose roles the policy trims.
    let admin: String
    let logger: Logger
    let subscriptions: Subscriptions
    let now: @Sendable () -> EpochSeconds

    /// Made before `online` is announced, so commands sent from then on are never missed.
    public struct Subscriptions: Sendable {
        let commands: MQTTSubscription
        let erasures: MQTTSubscription
    }

    public init(
        bus: any MessageBus, plugin: any DynamicSecurity, sweeper: RetainedSweeper, reporter: RejectionReporter,
        prefix: String, admin: String, logger: Logger, subscriptions: Subscriptions,
        now: @escaping @Sendable () -> EpochSeconds = { Date().timeIntervalSince1970 }
    ) {
        self.bus = bus
        self.plugin = plugin
        self.sweeper = sweeper
        self.reporter = reporter
        self.prefix = prefix
        self.admin = admin
        self.logger = logger
        self.subscriptions = subscriptions
        self.now = now
    }

    /// `_accounts/command` and `_accounts/erase/broker-admin`, at QoS 1.
    public static func subscribe(bus: any MessageBus, prefix: String) async throws -> Subscriptions {
        Subscriptions(
            commands: try await bus.subscribe(Topic.accountCommand.name(prefix: prefix), qos: .atLeastOnce),
            erasures: try await bus.subscribe(Topic.accountErase(.brokerAdmin).name(prefix: prefix), qos: .atLeastOnce))
    }

    public func run() async throws {
        try await PolicyEnforcer(plugin: plugin, admin: admin, logger: logger).enforce()
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask {
                for await message in subscriptions.commands.cancelOnGracefulShutdown() {
                    try await handleCommand(message)
                }
            }
            group.addTask {
                for await message in subscriptions.erasures.cancelOnGracefulShutdown() {
                    try await handleErasure(message)
                }
            }
        }
    }

    /// One message on `_accounts/command`. Throws only when the bus fails.
    public func handleCommand(_ message: MQTTMessage) async throws {
        switch AccountIntake.read(message.payload, retained: message.retain) {
        case .refused(let refusal, let id):
            await reporter.reject(reason: refusal.code, topicKind: .accountCommand, now: now())
            if let id { try await answer(AccountCommandResult(id: id, ok: false, error: .refused)) }
        case .accepted(let command):
            let result = await carryOut(command)
            var metadata: Logger.Metadata = ["id": "\(command.id)", "op": "\(command.op)", "user": "\(command.user)"]
            metadata["error"] = result.error.map { "\($0)" }
            logger.info(result.ok ? "account command done" : "account command failed", metadata: metadata)
            try await answer(result)
        }
    }

    /// Runs the command's plan, batch by batch; the first failure is the answer.
    func carryOut(_ command: AccountCommand) async -> AccountCommandResult {
        var sessions: [String] = []
        if AccountPlan.needsSessions(command.op) {
            do {
                sessions = try await sessionLogins(of: command.user)
            } catch {
                logger.error("plugin did not list its clients", metadata: ["id": "\(command.id)", "error": "\(error)"])
                return AccountCommandResult(id: command.id, ok: false, error: .brokerError)
            }
        }
        for step in AccountPlan.plan(for: command, prefix: prefix, sessions: sessions).steps {
            do {
                let replies = try await plugin.perform(step.map(\.command))
                if let failure = AccountPlan.failure(of: step, replies: replies) {
                    if failure == .brokerError { logPluginErrors(step, replies, id: command.id) }
                    return AccountCommandResult(id: command.id, ok: false, error: failure)
                }
            } catch {
                logger.error("plugin did not answer", metadata: ["id": "\(command.id)", "error": "\(error)"])
                return AccountCommandResult(id: command.id, ok: false, error: .brokerError)
            }
        }
        return AccountCommandResult(id: command.id, ok: true)
    }

    /// One message on `_accounts/erase/broker-admin`. Throws only when the bus fails.
    public func handleErasure(_ message: MQTTMessage) async throws {
        let request: EraseRequest
        switch EraseIntake.read(message.payload, retained: message.retain) {
        case .refused(let refusal):
            await reporter.reject(reason: refusal.code, topicKind: .accountErase, now: now())
            return
        case .accepted(let accepted):
            request = accepted
        }
        let report = await erase(request)
        logger.info(
            report.ok ? "walker erased from the broker" : "erasure failed",
            metadata: ["id": "\(request.id)", "user": "\(request.user)"])
        try await bus.publish(
            Topic.accountErased(.brokerAdmin).name(prefix: prefix), payload: try SafeWalkJSON.encode(report),
            qos: .atLeastOnce)
    }

    /// Deletes the logins and the device role (which disconnects them), then clears the
    /// retained messages only the walker's devices publish: `{w}/presence` and every
    /// `owntracks/{w}/+/#` the broker holds (a device's location, at `owntracks/{w}/{d}/K` on a
    /// partitioned cluster).
    func erase(_ request: EraseRequest) async -> EraseReport {
        let failed = EraseReport(id: request.id, user: request.user, ok: false, error: .storeError)
        do {
            let step = AccountPlan.erasure(of: request.user, sessions: try await sessionLogins(of: request.user))
            let replies = try await plugin.perform(step.map(\.command))
            if AccountPlan.failure(of: step, replies: replies) != nil {
                logPluginErrors(step, replies, id: request.id)
                return failed
            }
            let owntracks = try await sweeper.retainedTopics(
                matching: TopicFilter.owntracksDevices(of: request.user).rawValue)
            try await sweeper.clear([Topic.presence(request.user).name(prefix: prefix)] + owntracks)
            logger.debug(
                "retained messages cleared", metadata: ["user": "\(request.user)", "owntracks": "\(owntracks.count)"])
            return EraseReport(id: request.id, user: request.user, ok: true)
        } catch {
            logger.error("erasure incomplete", metadata: ["id": "\(request.id)", "error": "\(error)"])
            return failed
        }
    }

    /// The walker's app session logins, from the plugin's list of every client (`listClients`:
    /// the plugin has no query by prefix; erasures and `disable` are rare).
    func sessionLogins(of walker: WalkerID) async throws -> [String] {
        let listing = PlannedCommand(.listClients)
        let replies = try await plugin.perform([listing.command])
        guard AccountPlan.failure(of: [listing], replies: replies) == nil, let clients = replies.first?.data?.clients
        else { throw DynamicSecurityError.noAnswer(commands: ["listClients"], timeout: .zero) }
        return AccountNames.sessions(of: walker, among: clients)
    }

    private func answer(_ result: AccountCommandResult) async throws {
        try await bus.publish(
            Topic.accountResult.name(prefix: prefix), payload: try SafeWalkJSON.encode(result), qos: .atLeastOnce)
    }

    /// The plugin's own words for what went wrong (names and error texts; never a password).
    private func logPluginErrors(_ step: [PlannedCommand], _ replies: [ControlReply], id: String) {
        let errors = zip(step, replies).compactMap { planned, reply in
            reply.error.map { "\(planned.command): \($0)" }
        }
        logger.error("plugin refused a command", metadata: ["id": "\(id)", "errors": "\(errors)"])
    }
}
