import Foundation
import Logging
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import ServiceLifecycle

/// Publishes every walker's list at start-up, then answers `{p}/+/contacts/add` and
/// `{p}/+/contacts/remove`: the whole list republished retained on `{p}/{w}/contacts` after each
/// change, and an answer on `{p}/{w}/contacts/result` for every command.
public struct ContactsStoreService: Service {
    let bus: any MessageBus
    let prefix: String
    let directory: ContactsDirectory
    let reporter: RejectionReporter
    let logger: Logger
    let now: @Sendable () -> EpochSeconds
    let subscriptions: [MQTTSubscription]

    /// - Parameter subscriptions: made beforehand with ``subscribe(bus:prefix:)`` so the service is
    ///   listening before it announces `online`; when empty, `run()` subscribes itself.
    public init(
        bus: any MessageBus, prefix: String, directory: ContactsDirectory, reporter: RejectionReporter,
        logger: Logger, subscriptions: [MQTTSubscription] = [],
        now: @escaping @Sendable () -> EpochSeconds = { Date().timeIntervalSince1970 }
    ) {
        self.subscriptions = subscriptions
        self.bus = bus
        self.prefix = prefix
        self.directory = directory
        self.reporter = reporter
        self.logger = logger
        self.now = now
    }

    /// `{p}/+/contacts/add` and `{p}/+/contacts/remove` at QoS 1.
    public static func subscribe(bus: any MessageBus, prefix: String) async throws -> [MQTTSubscription] {
        [
            try await bus.subscribe(TopicFilter.every(.contactsAdd, prefix: prefix).rawValue, qos: .atLeastOnce),
            try await bus.subscribe(
                TopicFilter.every(.contactsRemove, prefix: prefix).rawValue, qos: .atLeastOnce),
        ]
    }

    public func run() async throws {
        let subscriptions =
            self.subscriptions.isEmpty ? try await Self.subscribe(bus: bus, prefix: prefix) : self.subscriptions
        let lists = await directory.allLists()
        for (walker, list) in lists {
            try await publish(list, for: walker)
        }
        logger.info("contacts published", metadata: ["walkers": "\(lists.count)"])
        try await withThrowingDiscardingTaskGroup { group in
            for subscription in subscriptions {
                group.addTask {
                    for await message in subscription.cancelOnGracefulShutdown() {
                        try await handle(message)
                    }
                }
            }
        }
    }

    /// Handles one command message. Throws only when the bus itself fails.
    public func handle(_ message: MQTTMessage) async throws {
        switch ContactIntake.read(topic: message.topic, payload: message.payload, prefix: prefix) {
        case .invalidTopic(let kind):
            await reporter.reject(reason: ContactRejection.invalidTopic, topicKind: kind, walker: nil, now: now())
        case .unreadable(let walker, let operation, let error):
            await reporter.reject(
                reason: error.code, topicKind: operation == .add ? .contactsAdd : .contactsRemove,
                walker: walker, now: now())
            try await answer(
                ContactResult(
                    operation: operation, outcome: .failed(message: ContactError.unreadable(error.code).message)),
                to: walker)
        case .command(let walker, let command):
            let (result, list) = await directory.apply(command, for: walker)
            if let list { try await publish(list, for: walker) }
            if case .failed(let why) = result.outcome {
                logger.info(
                    "contact command refused",
                    metadata: ["walker": "\(walker)", "operation": "\(result.operation)", "why": "\(why)"])
            }
            try await answer(result, to: walker)
        }
    }

    /// contacts-store's part of an account deletion: the walker's contacts leave the database and
    /// memory, then the retained `{p}/{w}/contacts` is cleared (an empty retained message). Either
    /// failing is `storeError`, and `web` asks again; asking again is harmless.
    public func erase(_ walker: WalkerID) async -> EraseReport.Failure? {
        do {
            try await directory.erase(walker)
        } catch {
            logger.error("contacts not erased", metadata: ["walker": "\(walker)", "error": "\(error)"])
            return .storeError
        }
        do {
            try await bus.publish(
                Topic.contacts(walker).name(prefix: prefix), payload: Data(), qos: .atLeastOnce, retain: true)
        } catch {
            logger.warning("retained contacts not cleared", metadata: ["walker": "\(walker)", "error": "\(error)"])
            return .storeError
        }
        return nil
    }

    private func publish(_ list: ContactList, for walker: WalkerID) async throws {
        try await bus.publish(
            Topic.contacts(walker).name(prefix: prefix), payload: try SafeWalkJSON.encode(list),
            qos: .atLeastOnce, retain: true)
    }

    private func answer(_ result: ContactResult, to walker: WalkerID) async throws {
        try await bus.publish(
            Topic.contactsResult(walker).name(prefix: prefix), payload: try SafeWalkJSON.encode(result),
            qos: .atLeastOnce)
    }
}

/// Reason codes of contacts-store's own rejections.
enum ContactRejection {
    static let invalidTopic = "invalid_topic"
}
