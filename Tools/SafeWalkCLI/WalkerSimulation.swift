import Foundation
import SafeWalkCore
import SafeWalkMQTT
import Synchronization

/// Everything the simulation did, for the CLI to print and tests to await.
public enum SimulationEvent: Sendable, Equatable {
    case online
    case actionSent(Action)
    /// The same action (same id) again: no answer yet.
    case actionRepeated(Action, attempt: Int)
    /// The first answer to one of our actions, on `{w}/action/result` or `{w}/rejected`.
    case actionAnswered(Action, ActionAnswer)
    /// Repeated until the deadline without an answer.
    case actionUnanswered(Action, attempts: Int)
    /// A service refused other input of this walker (a reply, a fix, …) on `{w}/rejected`.
    case refused(InputRefusal)
    /// The hold's heartbeats stop without a `release`.
    case holdDropped
    case fix(LocationFix)
    case answered(Reply)
    case wentSilent
    case leftUnanswered
    case finished
}

/// A simulated phone + tracker: presence, the start action, fixes along a path, and quick
/// replies to check-ins until it goes silent. Time comes from an injected clock.
public struct WalkerSimulation: Sendable {
    public let settings: SimulationSettings
    public let bus: any MessageBus
    public let clock: any SimulationClock
    public let events: @Sendable (SimulationEvent) -> Void
    private let path: WalkPath

    public init(
        settings: SimulationSettings, path: WalkPath, bus: any MessageBus, clock: any SimulationClock,
        events: @escaping @Sendable (SimulationEvent) -> Void
    ) {
        self.settings = settings
        self.path = path
        self.bus = bus
        self.clock = clock
        self.events = events
    }

    /// The Last Will a tracker registers: presence `offline`, retained.
    public static func lastWill(walker: WalkerID, prefix: String) -> MQTTMessage {
        MQTTMessage(topic: Topic.presence(walker).name(prefix: prefix), payload: Presence.offline.payload, retain: true)
    }

    /// Runs until `duration` passes or the task is cancelled, then says goodbye (stop, offline).
    public func run() async throws {
        let w = settings.walker
        let start = clock.now()
        let answerer = PromptAnswerer(silentFrom: settings.goSilentAfter.map { start + $0 })
        let chat = try await bus.subscribe(Topic.chat(w).name(prefix: settings.prefix), qos: .atLeastOnce)
        let status = try await bus.subscribe(Topic.status(w).name(prefix: settings.prefix), qos: .atLeastOnce)
        // Listening for answers before the first action goes out, so no answer is missed.
        let answers = ActionAnswers()
        try await answers.listen(on: bus, walker: w, prefix: settings.prefix, events: events)
        defer { answers.stop() }
        let sender = ActionSender(
            bus: bus, walker: w, prefix: settings.prefix, clock: clock,
            policy: settings.actionRepeat, answers: answers, events: events)
        try await bus.publish(
            Topic.presence(w).name(prefix: settings.prefix), payload: Presence.online.payload,
            qos: .atLeastOnce, retain: true)
        events(.online)
        var script = SimulationScript(settings)
        let (opening, later) = try await sendOpening(&script, sender: sender)

        let shared = AnswererBox(answerer)
        await withTaskGroup(of: Void.self) { group in
            for sent in opening { group.addTask { _ = await sender.follow(sent) } }
            if let later {
                group.addTask { [script] in await self.perform(from: later, then: script, start: start, sender: sender)
                }
            }
            group.addTask {
                await self.answer(
                    chat,
                    decide: { (try? SafeWalkJSON.decode(ChatMessage.self, from: $0)).map(PromptAnswerer.Signal.chat) },
                    shared)
            }
            group.addTask {
                await self.answer(
                    status,
                    decide: {
                        (try? SafeWalkJSON.decode(WatchStatus.self, from: $0)).map(PromptAnswerer.Signal.status)
                    }, shared)
            }
            try? await self.walk(from: start, answerer: answerer)
            chat.cancel()
            status.cancel()
            group.cancelAll()
        }
        if settings.stopAtEnd {
            let stop = Action(id: UUID().uuidString, kind: .stop, pin: settings.endPIN)
            // Ctrl-C cancelled this task, but the goodbye must still be repeated until it is
            // answered: it runs in a task of its own, bounded by the repeat deadline.
            _ = try await Task { try await sender.send(stop) }.value
            try await bus.publish(
                Topic.presence(w).name(prefix: settings.prefix), payload: Presence.offline.payload,
                qos: .atLeastOnce, retain: true)
        }
        events(.finished)
    }

    /// Publishes a fix every `interval` until `duration` passes or the task is cancelled.
    private func walk(from start: EpochSeconds, answerer: PromptAnswerer) async throws {
        var path = self.path
        var here = path.next()
        var silent = false
        var first = true
        while !Task.isCancelled {
            let now = clock.now()
            if let duration = settings.duration, now - start >= duration { return }
            if !silent, answerer.isSilent(at: now) {
                silent = true
                events(.wentSilent)
            }
            if !first, !(silent && settings.stopMovingWhenSilent) { here = path.next() }
            first = false
            let fix = LocationFix(lat: here.lat, lon: here.lon, tst: now, acc: settings.accuracy)
            try await bus.publish(
                MQTTMessage(
                    topic: Topic.fix(settings.walker).name(prefix: settings.prefix),
                    payload: try SafeWalkJSON.encode(fix)))
            events(.fix(fix))
            try await clock.sleep(seconds: settings.interval)
        }
    }
}
