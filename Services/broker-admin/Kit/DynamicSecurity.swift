import Foundation
import Logging
import SafeWalkMQTT
import SafeWalkService
import ServiceLifecycle

/// The plugin's control API: the one IO seam of `broker-admin`'s account logic. In production
/// ``PluginConnection`` (MQTT to `$CONTROL/dynamic-security/v1`); in unit tests a fake.
public protocol DynamicSecurity: Sendable {
    /// Publishes `commands` as one batch and returns the plugin's answers, one per command, in
    /// order. Throws ``DynamicSecurityError`` when no answer came.
    func perform(_ commands: [ControlCommand]) async throws -> [ControlReply]
    /// Publishes `commands` as one batch without waiting for the answer (a batch that changes
    /// the sender's own role gets it kicked, and its answer is lost).
    func post(_ commands: [ControlCommand]) async throws
}

/// Why the plugin did not answer.
public enum DynamicSecurityError: Error, Hashable, Sendable {
    /// Published (so possibly carried out) but not answered within the timeout.
    case noAnswer(commands: [String], timeout: Duration)
    /// The connection is shutting down.
    case shutDown
}

/// Speaks the plugin's JSON over the broker: publishes each batch at QoS 1 to
/// `$CONTROL/dynamic-security/v1` and matches the answers on
/// `$CONTROL/dynamic-security/v1/response` by their correlation data. The plugin carries a
/// batch out while handling the PUBLISH, before its PUBACK; the answer is QoS 0 (so a lost
/// answer means "done, outcome unknown").
public final class PluginConnection: DynamicSecurity, Service {
    public static let commandTopic = "$CONTROL/dynamic-security/v1"
    public static let responseTopic = "$CONTROL/dynamic-security/v1/response"

    private let bus: any MessageBus
    private let responses: MQTTSubscription
    private let timeout: Duration
    private let logger: Logger
    private let waiters = AwaitedAnswers<String, [ControlReply]>()

    /// Subscribes to the response topic, so no answer can be missed; answers are read by
    /// ``run()``, which must be running for ``perform(_:)`` to return.
    public init(bus: any MessageBus, timeout: Duration, logger: Logger) async throws {
        self.bus = bus
        self.timeout = timeout
        self.logger = logger
        responses = try await bus.subscribe(Self.responseTopic, qos: .atMostOnce)
    }

    /// Reads answers until shutdown and hands each to the batch waiting for it.
    public func run() async {
        for await message in responses.cancelOnGracefulShutdown() {
            guard let batch = ControlBatch.batchID(of: message.payload),
                let replies = ControlBatch.replies(in: message.payload)
            else {
                logger.warning("unreadable plugin answer", metadata: ["bytes": "\(message.payload.count)"])
                continue
            }
            waiters.deliver(replies, for: batch)
        }
        waiters.failAll(DynamicSecurityError.shutDown)
    }

    public func perform(_ commands: [ControlCommand]) async throws -> [ControlReply] {
        let batch = ControlBatch(id: UUID().uuidString, commands: commands)
        let payload = try batch.payload()
        let (bus, waiters, timeout) = (self.bus, self.waiters, self.timeout)
        // The batch is registered before it is published: the answer can arrive before `publish`
        // returns. The timeout counts from the end of the publish, and a wait cut short (the
        // timeout, or shutdown) gives no replies; a failed publish is thrown.
        let (published, publishDone) = AsyncStream.makeStream(of: Never.self)
        let outcome = await withTaskGroup(of: Result<[ControlReply], any Error>?.self) { group in
            group.addTask {
                do {
                    return .success(
                        try await waiters.wait(for: batch.id) {
                            try await bus.publish(Self.commandTopic, payload: payload, qos: .atLeastOnce)
                            publishDone.finish()
                        })
                } catch is CancellationError {
                    return nil
                } catch DynamicSecurityError.shutDown {
                    return nil
                } catch {
                    return .failure(error)
                }
            }
            group.addTask {
                for await _ in published {}
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let replies = try outcome?.get() else {
            throw DynamicSecurityError.noAnswer(commands: commands.map(\.name), timeout: timeout)
        }
        guard let matched = batch.match(replies) else {
            logger.error(
                "plugin answer does not match its batch",
                metadata: ["commands": "\(commands)", "answers": "\(replies.map(\.command))"])
            throw DynamicSecurityError.noAnswer(commands: commands.map(\.name), timeout: timeout)
        }
        return matched
    }

    public func post(_ commands: [ControlCommand]) async throws {
        let batch = ControlBatch(id: UUID().uuidString, commands: commands)
        try await bus.publish(Self.commandTopic, payload: try batch.payload(), qos: .atLeastOnce)
    }
}
