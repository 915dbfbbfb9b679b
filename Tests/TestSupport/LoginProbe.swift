import Foundation
import Logging
import SafeWalkMQTT

extension MosquittoBroker {
    /// Nil when `username` can log in with `password` now (both nil: anonymously); the broker's
    /// refusal when it cannot. The probe's own connection is closed either way, and a refusal
    /// logs nothing.
    public nonisolated func refusal(username: String?, password: String?) async throws -> MQTTError? {
        var logger = Logger(label: "refusal")
        logger.logLevel = .critical
        let client = try MQTTClient(
            configuration: MQTTConfiguration(
                port: port, clientID: "try-\(UUID().uuidString.prefix(6))", username: username, password: password),
            logger: logger)
        defer { Task { await client.shutdown() } }
        do {
            try await withTimeout(10, "CONNACK") { try await client.connect() }
            return nil
        } catch let error as MQTTError {
            return error
        }
    }

    /// Whether the broker refuses `username` with `password` (rather than letting it in, or
    /// failing some other way).
    public nonisolated func refuses(username: String, password: String) async throws -> Bool {
        if case .connectionRefused = try await refusal(username: username, password: password) { return true }
        return false
    }
}

extension MQTTClient {
    /// Waits until the broker has dropped this client (a kicked login); it may try to reconnect
    /// after that, which ``MosquittoBroker/refusal(username:password:)`` tells the outcome of.
    public func waitUntilDisconnected(within seconds: Double = 5) async throws {
        try await eventually("a disconnect", within: seconds) { !isConnected }
    }
}
