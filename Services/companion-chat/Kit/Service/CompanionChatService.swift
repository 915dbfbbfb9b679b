import Foundation
import Logging
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import ServiceLifecycle

/// The companion: check-ins on `{w}/prompt`, answers on `{w}/reply`, all sent on `{w}/chat`.
///
/// Both subscriptions feed one dispatcher that validates each message and queues it on its
/// walker's lane (``WalkerLanes``); a worker task per busy walker answers that walker's events
/// in order. Quick replies and check-ins never touch the network; free text asks the
/// ``ChatModel`` and, if it fails for any reason, gets a canned answer instead. On graceful
/// shutdown the subscriptions end, queued events are still answered (without new model calls),
/// and `run()` returns once every worker has finished.
public struct CompanionChatService: Service {
    let bus: any MessageBus
    let prefix: String
    let model: any ChatModel
    let lanes: WalkerLanes
    let limits: ChatIntake.Limits
    let subscriptions: [MQTTSubscription]
    let logger: Logger
    let now: @Sendable () -> EpochSeconds
    public let reporter: RejectionReporter
    public let stats: CompanionStats

    /// Subscribes to `{p}/+/prompt` and `{p}/+/reply` (only partition K's, `{p}/+/prompt/K`, when
    /// `settings.partition` says this is companion K of N) before returning, so everything
    /// published after this returns is answered (the runner announces `online` only after the
    /// build).
    public static func subscribe(
        bus: any MessageBus, prefix: String, model: any ChatModel, settings: CompanionChatSettings,
        logger: Logger, now: @escaping @Sendable () -> EpochSeconds = { Date().timeIntervalSince1970 }
    ) async throws -> CompanionChatService {
        var subscriptions: [MQTTSubscription] = []
        for channel in [Topic.Kind.prompt, .reply] {
            let filter = TopicFilter.partitionInput(channel, partition: settings.partition, prefix: prefix)
            subscriptions.append(try await bus.subscribe(filter.rawValue, qos: .atLeastOnce))
        }
        return CompanionChatService(
            bus: bus, prefix: prefix, model: model,
            lanes: WalkerLanes(
                queueLimit: settings.queueLimit, maxWalkers: settings.maxWalkers, maxTurns: settings.historyTurns),
            limits: settings.limits, subscriptions: subscriptions, logger: logger, now: now,
            reporter: RejectionReporter(service: .companionChat, prefix: prefix, bus: bus, logger: logger),
            stats: CompanionStats())
    }

    public func run() async {
        await withDiscardingTaskGroup { group in
            let (merged, sink) = AsyncStream.makeStream(of: MQTTMessage.self)
            group.addTask {
                await withDiscardingTaskGroup { forwarders in
                    for subscription in subscriptions {
                        forwarders.addTask { await subscription.forEachUntilShutdown { sink.yield($0) } }
                    }
                }
                sink.finish()
            }
            for await message in merged {
                guard let walker = await admit(message) else { continue }
                group.addTask { await self.work(for: walker) }
            }
        }
        logger.info("companion chat stopped")
    }

    /// Erases what the companion keeps about `walker` (docs/CONTRACT.md, "Accounts"): its
    /// conversation, queued events and usage entry, all in memory (nothing is written to disk).
    /// An answer already being prepared may still go out on `{w}/chat`, but is not remembered.
    public func erase(_ walker: WalkerID) async -> EraseReport.Failure? {
        lanes.erase(walker)
        return nil
    }

    /// Validates and queues a message; returns the walker when a worker must be started for it.
    private func admit(_ message: MQTTMessage) async -> WalkerID? {
        switch ChatIntake.decode(message, prefix: prefix, limits: limits) {
        case .failure(let rejected):
            await reporter.reject(
                reason: rejected.reason, topicKind: rejected.topicKind, walker: rejected.walker, now: now())
            return nil
        case .success(let (walker, event)):
            switch lanes.enqueue(event, for: walker) {
            case .startWorker: return walker
            case .queued: return nil
            case .full:
                let kind: Topic.Kind = if case .prompt = event { .prompt } else { .reply }
                await reporter.reject(reason: "queue_full", topicKind: kind, walker: walker, now: now())
                return nil
            }
        }
    }

    /// Answers one walker's queued events in order, until the queue is empty.
    private func work(for walker: WalkerID) async {
        while let (event, taken) = lanes.next(for: walker) {
            var conversation = taken
            let answer = await respond(to: event, in: &conversation, walker: walker)
            lanes.finish(conversation, for: walker)
            if let answer { await publish(answer.text, kind: answer.kind, to: walker) }
        }
    }

    private func respond(
        to event: ChatEvent, in conversation: inout WalkerConversation,
        walker: WalkerID
    ) async -> (text: String, kind: ChatMessageKind)? {
        switch conversation.step(for: event) {
        case .duplicate:
            logger.debug("duplicate prompt ignored", metadata: ["walker": "\(walker)"])
            return nil
        case .say(let text, let kind):
            return (text, kind)
        case .askModel(let turns):
            // Shutting down: answer at once rather than start a call that could hold the exit.
            guard !Task.isShuttingDownGracefully else { return conversation.answered(nil) }
            let started = ContinuousClock.now
            do {
                let text = try await model.reply(to: turns)
                return conversation.answered(text)
            } catch {
                stats.modelFailed(error)
                // No key is the documented default (announced once at start, counted in the metrics):
                // not worth a line per answer at the default level, which cost every quick reply a
                // formatted log line.
                logger.log(
                    level: error == .noKey ? .debug : .warning, "companion model failed; sending a canned answer",
                    metadata: [
                        "walker": "\(walker)", "reason": "\(error.code)", "error": "\(error)",
                        "ms": "\((ContinuousClock.now - started).milliseconds)",
                    ])
                return conversation.answered(nil)
            }
        }
    }

    private func publish(_ text: String, kind: ChatMessageKind, to walker: WalkerID) async {
        let message = ChatMessage(id: UUID().uuidString, text: text, tst: now())
        do {
            let payload = try message.jsonPayload()
            try await bus.publish(Topic.chat(walker).name(prefix: prefix), payload: payload, qos: .atLeastOnce)
            stats.sent(kind)
            logger.debug("chat message sent", metadata: ["walker": "\(walker)", "kind": "\(kind.rawValue)"])
        } catch {
            logger.error("chat message not published", metadata: ["walker": "\(walker)", "error": "\(error)"])
        }
    }
}
