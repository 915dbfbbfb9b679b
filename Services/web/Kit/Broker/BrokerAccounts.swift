import Foundation
import Logging
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import ServiceLifecycle

/// `web`'s side of the accounts topics (docs/CONTRACT.md, "Accounts"): commands to broker-admin
/// on `_accounts/command`, answered on `_accounts/result`; erase requests to each service on
/// `_accounts/erase/{service}`, answered on `_accounts/erased/{service}`. Both answers are
/// matched to their request by id, and the service reads the answer topics for as long as it
/// runs.
public struct BrokerAccounts: CredentialKeeper, Eraser, Service {
    struct ErasureKey: Hashable, Sendable {
        var id: String
        var service: ServiceName
    }

    let bus: any MessageBus
    let prefix: String
    let logger: Logger
    let results: MQTTSubscription
    let reports: MQTTSubscription
    let commands = AwaitedAnswers<String, AccountCommandResult>()
    let erasures = AwaitedAnswers<ErasureKey, EraseReport>()

    /// Subscribes to both answer topics before returning, so no answer can precede its reader.
    public static func connect(bus: any MessageBus, prefix: String, logger: Logger) async throws -> BrokerAccounts {
        let results = try await bus.subscribe(Topic.accountResult.name(prefix: prefix), qos: .atLeastOnce)
        let reports = try await bus.subscribe(
            TopicFilter.every(.accountErased, prefix: prefix).rawValue, qos: .atLeastOnce)
        return BrokerAccounts(bus: bus, prefix: prefix, logger: logger, results: results, reports: reports)
    }

    public func run(_ command: AccountCommand) async throws -> AccountCommandResult {
        let payload = try SafeWalkJSON.encode(command)
        return try await commands.wait(for: command.id) {
            try await bus.publish(Topic.accountCommand.name(prefix: prefix), payload: payload, qos: .atLeastOnce)
        }
    }

    public func erase(_ request: EraseRequest, at service: ServiceName) async throws -> EraseReport {
        let payload = try SafeWalkJSON.encode(request)
        return try await erasures.wait(for: ErasureKey(id: request.id, service: service)) {
            try await bus.publish(Topic.accountErase(service).name(prefix: prefix), payload: payload, qos: .atLeastOnce)
        }
    }

    /// Reads both answer topics until shutdown; then fails whoever still waits.
    public func run() async throws {
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await message in results.cancelOnGracefulShutdown() { receiveResult(message) }
            }
            group.addTask {
                for await message in reports.cancelOnGracefulShutdown() { receiveReport(message) }
            }
        }
        commands.failAll(CancellationError())
        erasures.failAll(CancellationError())
    }

    /// Answers are small: an id, a walker id, a flag and a code.
    static let maxAnswerBytes = 1_024

    func receiveResult(_ message: MQTTMessage) {
        guard
            let result = try? SafeWalkJSON.decode(
                AccountCommandResult.self, from: message.payload, maxBytes: Self.maxAnswerBytes)
        else {
            logger.error("unreadable answer from broker-admin ignored", metadata: ["bytes": "\(message.payload.count)"])
            return
        }
        if !commands.deliver(result, for: result.id) {
            logger.debug("answer for a command nobody waits for", metadata: ["id": "\(result.id)"])
        }
    }

    func receiveReport(_ message: MQTTMessage) {
        guard let topic = Topic.parse(message.topic, prefix: prefix), topic.kind == .accountErased,
            let service = topic.service,
            let report = try? SafeWalkJSON.decode(
                EraseReport.self, from: message.payload, maxBytes: Self.maxAnswerBytes)
        else {
            logger.error("unreadable erasure report ignored", metadata: ["topic": "\(message.topic)"])
            return
        }
        if !erasures.deliver(report, for: ErasureKey(id: report.id, service: service)) {
            logger.debug("erasure report nobody waits for", metadata: ["id": "\(report.id)", "service": "\(service)"])
        }
    }
}
