import Foundation
import Logging
import SafeWalkCore
import SafeWalkMQTT

/// web's side of the app API: one MQTT client per session login, logged in as that session
/// (`{w}.app-{session}`, with the password derived from the cookie), shared by the session's
/// tabs and closed once no stream has used it for the presence grace. web's own service login
/// never carries an app's message: the broker, not web, decides what the session may touch.
public actor AppBridge {
    /// How to reach the broker (web's own configuration; the login is replaced per session).
    let broker: MQTTConfiguration
    let prefix: String
    let accounts: Accounts
    let settings: AppSettings
    let logger: Logger

    private struct Entry {
        var connecting: Task<AppConnection, any Error>
        var grace = PresenceGrace()
    }

    private var entries: [String: Entry] = [:]

    public init(broker: MQTTConfiguration, prefix: String, accounts: Accounts, settings: AppSettings, logger: Logger) {
        self.broker = broker
        self.prefix = prefix
        self.accounts = accounts
        self.settings = settings
        self.logger = logger
    }

    /// Closes the clients of revoked logins at once (sign-out, password change, sweep).
    public func observeRevocations() {
        accounts.revocations.observe { [weak self] logins in await self?.close(logins.map(\.session)) }
    }

    /// Opens an event stream for the session; the stream's end must be reported with
    /// ``streamEnded(_:id:)``. Throws 429 `tooManyStreams`, or 503 `brokerUnavailable`.
    func openStream(_ login: SessionLogin, token: String) async throws -> (UUID, AsyncStream<AppEvent>) {
        if let entry = entries[login.session], entry.grace.streams >= settings.maxStreams {
            throw APIError.tooManyStreams
        }
        let connection = try await connection(login, token: token)
        guard let (id, events) = connection.attach() else { throw APIError.brokerUnavailable }
        entries[login.session]?.grace.opened()
        return (id, events)
    }

    func streamEnded(_ login: SessionLogin, id: UUID) async {
        guard var entry = entries[login.session] else { return }
        if let connection = try? await entry.connecting.value { connection.detach(id) }
        guard let current = entries[login.session] else { return }
        entry = current
        let token = entry.grace.closed()
        entries[login.session] = entry
        if let token { startGrace(login, token: token) }
    }

    /// Publishes one input as the session's login, QoS 1; returns after the broker's PUBACK.
    func publish(_ input: AppInput, _ login: SessionLogin, token: String) async throws {
        let topic = Topic(input.kind, walker: login.user)!.name(prefix: prefix)
        let message = MQTTMessage(topic: topic, payload: input.payload, qos: .atLeastOnce, retain: input.retained)
        let connection = try await connection(login, token: token)
        do {
            try await Deadline.run(settings.publishWait, clock: accounts.clock) {
                try await connection.client.publish(message)
            }
        } catch {
            logger.warning("app publish failed", metadata: ["walker": "\(login.user)", "error": "\(error)"])
            throw APIError.brokerUnavailable
        }
        if let token = entries[login.session]?.grace.idle() { startGrace(login, token: token) }
    }

    /// Ends the connections of these sessions now, without `offline` (their logins are gone).
    func close(_ sessions: [String]) async {
        for session in sessions {
            guard let entry = entries.removeValue(forKey: session) else { continue }
            entry.connecting.cancel()
            if let connection = try? await entry.connecting.value { await shut(connection) }
        }
    }

    /// The session's connection, made (once, however many tabs ask at the same time) when none is.
    private func connection(_ login: SessionLogin, token: String) async throws -> AppConnection {
        if let entry = entries[login.session] {
            if let connection = try? await entry.connecting.value { return connection }
            // A failed attempt is forgotten so the next request tries again.
            if entries[login.session]?.connecting == entry.connecting { entries[login.session] = nil }
        }
        let task = Task { try await self.connect(login, password: SessionLogin.password(token: token), token: token) }
        entries[login.session] = Entry(connecting: task)
        do {
            return try await task.value
        } catch {
            if entries[login.session]?.connecting == task { entries[login.session] = nil }
            logger.warning("app connection failed", metadata: ["walker": "\(login.user)", "error": "\(error)"])
            throw APIError.brokerUnavailable
        }
    }

    /// Connects as the session's login, asking broker-admin for it once when the broker does not
    /// know it (broker-admin missed it at sign-in, or `disable` deleted it), then subscribes to
    /// the walker's read topics. Bounded by the publish wait.
    private nonisolated func connect(_ login: SessionLogin, password: String, token: String) async throws
        -> AppConnection
    {
        do {
            return try await attempt(login, password: password)
        } catch MQTTError.connectionRefused {
            guard await accounts.createSessionLogin(login, token: token) else { throw APIError.brokerUnavailable }
            return try await attempt(login, password: password)
        }
    }

    private nonisolated func attempt(_ login: SessionLogin, password: String) async throws -> AppConnection {
        var configuration = broker
        configuration.clientID = "web-app-\(login.session)"
        configuration.username = login.username
        configuration.password = password
        configuration.cleanSession = true
        configuration.lastWill = nil
        let signals = BridgeSignals()
        configuration.observer = signals
        let client = try MQTTClient(configuration: configuration, logger: logger)
        do {
            try await Deadline.run(settings.publishWait, clock: accounts.clock) { try await client.connect() }
            let connection = AppConnection(login: login, client: client, prefix: prefix)
            signals.bind(connection)
            for filter in AppTopics.readFilters(of: login.user, prefix: prefix) {
                let subscription = try await client.subscribe(filter, qos: .atLeastOnce)
                Task { for await message in subscription { connection.deliver(message) } }
            }
            return connection
        } catch {
            await client.shutdown()
            throw error
        }
    }

    private func startGrace(_ login: SessionLogin, token: Int) {
        let (grace, clock) = (settings.presenceGrace, accounts.clock)
        Task {
            do { try await clock.sleep(for: grace) } catch { return }
            await self.graceEnded(login, token: token)
        }
    }

    private func graceEnded(_ login: SessionLogin, token: Int) async {
        guard let entry = entries[login.session], let expiry = entry.grace.expire(token) else { return }
        entries[login.session] = nil
        guard let connection = try? await entry.connecting.value else { return }
        if expiry == .offlineThenClose {
            let offline = MQTTMessage(
                topic: Topic.presence(login.user).name(prefix: prefix), payload: Data("offline".utf8),
                qos: .atLeastOnce, retain: true)
            do {
                try await Deadline.run(settings.publishWait, clock: accounts.clock) {
                    try await connection.client.publish(offline)
                }
                logger.info("app gone: offline published", metadata: ["walker": "\(login.user)"])
            } catch {
                logger.warning("offline not published", metadata: ["walker": "\(login.user)", "error": "\(error)"])
            }
        }
        await shut(connection)
    }

    private func shut(_ connection: AppConnection) async {
        connection.close()
        await connection.client.shutdown()
    }
}
