import Foundation
import Logging
import SafeWalkMQTT
import Synchronization

/// Connects the CLI to the broker with a bounded wait, turning the client's endless retry into
/// a clear error naming host:port, and a refused CONNECT into a credentials error.
public enum BrokerConnection {
    /// Runs `body` with a connected client and shuts the client down afterwards, whether
    /// `body` returned or threw.
    static func withClient<T>(_ settings: BrokerSettings, _ body: (MQTTClient) async throws -> T) async throws -> T {
        let client = try await connect(settings)
        do {
            let result = try await body(client)
            await client.shutdown()
            return result
        } catch {
            await client.shutdown()
            throw error
        }
    }

    /// A connected client; shut it down when done.
    public static func connect(
        _ settings: BrokerSettings, clientID: String = "safewalk-cli-\(UUID().uuidString.prefix(8))",
        lastWill: MQTTMessage? = nil, logger: Logger = CLILogger.make()
    ) async throws(CLIError) -> MQTTClient {
        let client: MQTTClient
        do {
            client = try MQTTClient(
                configuration: MQTTConfiguration(
                    host: settings.host, port: settings.port, clientID: clientID,
                    username: settings.username, password: settings.password, cleanSession: true,
                    keepAliveSeconds: 10, lastWill: lastWill, reconnectDelayMax: 2),
                logger: logger)
        } catch {
            throw .invalidInput(error.description)
        }
        // Whoever settles first wins: the connection, or the timer that shuts the client down.
        let outcome = Mutex<Outcome>(.pending)
        let timeout = settings.connectTimeout
        let timer = Task {
            try await Task.sleep(for: .seconds(timeout))
            let expire = outcome.withLock { state in
                guard state == .pending else { return false }
                state = .timedOut
                return true
            }
            if expire { await client.shutdown() }
        }
        defer { timer.cancel() }
        do {
            try await client.connect()
        } catch let error as MQTTError {
            if case .connectionRefused(_, let reason) = error {
                throw .credentialsRefused(
                    host: settings.host, port: settings.port, username: settings.username,
                    reason: reason)
            }
            await client.shutdown()
            let timedOut = outcome.withLock { $0 == .timedOut }
            throw .brokerUnreachable(
                host: settings.host, port: settings.port, seconds: timeout,
                detail: timedOut ? nil : error.description)
        } catch {
            await client.shutdown()
            throw .brokerUnreachable(host: settings.host, port: settings.port, seconds: timeout, detail: "\(error)")
        }
        let won = outcome.withLock { state in
            guard state == .pending else { return false }
            state = .connected
            return true
        }
        guard won else {
            await client.shutdown()
            throw .brokerUnreachable(host: settings.host, port: settings.port, seconds: timeout, detail: nil)
        }
        return client
    }

    private enum Outcome { case pending, connected, timedOut }
}

/// The CLI's logger: warnings and errors to stderr, so libmosquitto retry chatter stays quiet.
public enum CLILogger {
    public static func make(level: Logger.Level = .error) -> Logger {
        var logger = Logger(label: "safewalk", factory: { StreamLogHandler.standardError(label: $0) })
        logger.logLevel = level
        return logger
    }
}
