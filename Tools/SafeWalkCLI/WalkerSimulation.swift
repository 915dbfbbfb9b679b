import Foundation
import SafeWalkCore
import SafeWalkMQTT
import Synchronization

/// What the simulated tracker and walker do, independent of MQTT connection details.
public struct SimulationSettings: Sendable {
    public var walker: WalkerID
    public var prefix: String
    /// Seconds between fixes.
    public var interval: Double
    /// Seconds after the start when the walker stops answering (nil: always answers).
    public var goSilentAfter: Double?
    /// Whether the walker also stands still once silent (fixes keep coming, from one place).
    public var stopMovingWhenSilent: Bool
    /// `startWalk(destination, minutes)` instead of `start`.
    public var walk: (destination: String, minutes: Double)?
    /// Seconds to run (nil: until cancelled).
    public var duration: Double?
    /// Send `stop` and presence `offline` at the end.
    public var stopAtEnd: Bool
    /// GPS accuracy reported with each fix, metres.
    public var accuracy: Double

    public init(walker: WalkerID, prefix: String = Topic.defaultPrefix, interval: Double = 5,
                goSilentAfter: Double? = nil, stopMovingWhenSilent: Bool = false,
                walk: (destination: String, minutes: Double)? = nil, duration: Double? = nil,
                stopAtEnd: Bool = true, accuracy: Double = 3) {
        self.walker = walker
        self.prefix = prefix
        self.interval = interval
        self.goSilentAfter = goSilentAfter
        self.stopMovingWhenSilent = stopMovingWhenSilent
        self.walk = walk
        self.duration = duration
        self.stopAtEnd = stopAtEnd
        self.accuracy = accuracy
    }
}

/// Everything the simulation did, for the CLI to print and tests to await.
public enum SimulationEvent: Sendable, Equatable {
    case online
    case actionSent(Action)
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

    public init(settings: SimulationSettings, path: WalkPath, bus: any MessageBus, clock: any SimulationClock,
                events: @escaping @Sendable (SimulationEvent) -> Void) {
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
        try await bus.publish(Topic.presence(w).name(prefix: settings.prefix), payload: Presence.online.payload,
                              qos: .atLeastOnce, retain: true)
        events(.online)
        let kind: Action.Kind = settings.walk.map { .startWalk(destination: $0.destination, minutes: $0.minutes) } ?? .start
        try await send(Action(id: UUID().uuidString, kind: kind))

        let shared = AnswererBox(answerer)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.answer(chat, decide: { (try? SafeWalkJSON.decode(ChatMessage.self, from: $0)).map(PromptAnswerer.Signal.chat) }, shared) }
            group.addTask { await self.answer(status, decide: { (try? SafeWalkJSON.decode(WatchStatus.self, from: $0)).map(PromptAnswerer.Signal.status) }, shared) }
            try? await self.walk(from: start, answerer: answerer)
            chat.cancel()
            status.cancel()
        }
        if settings.stopAtEnd {
            try await send(Action(id: UUID().uuidString, kind: .stop))
            try await bus.publish(Topic.presence(w).name(prefix: settings.prefix), payload: Presence.offline.payload,
                                  qos: .atLeastOnce, retain: true)
        }
        events(.finished)
    }

    private func send(_ action: Action) async throws {
        try await bus.publish(MQTTMessage(topic: Topic.action(settings.walker).name(prefix: settings.prefix),
                                          payload: try SafeWalkJSON.encode(action)))
        events(.actionSent(action))
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
            try await bus.publish(MQTTMessage(topic: Topic.fix(settings.walker).name(prefix: settings.prefix),
                                              payload: try SafeWalkJSON.encode(fix)))
            events(.fix(fix))
            try await clock.sleep(seconds: settings.interval)
        }
    }

    private func answer(_ subscription: MQTTSubscription, decide signal: @escaping @Sendable (Data) -> PromptAnswerer.Signal?,
                        _ answerer: AnswererBox) async {
        for await message in subscription {
            guard let signal = signal(message.payload) else { continue }
            let now = clock.now()
            switch answerer.decide(signal, at: now) {
            case .ignore: continue
            case .silent: events(.leftUnanswered)
            case .answer:
                let reply = Reply(text: QuickReply.okay.text, quickReply: true, tst: now)
                guard let payload = try? SafeWalkJSON.encode(reply) else { continue }
                do {
                    try await bus.publish(MQTTMessage(topic: Topic.reply(settings.walker).name(prefix: settings.prefix),
                                                      payload: payload))
                    events(.answered(reply))
                } catch {
                    continue  // shutting down
                }
            }
        }
    }
}

/// One answerer shared by the chat and status listeners, so a prompt seen on both is answered once.
final class AnswererBox: Sendable {
    private let answerer: Mutex<PromptAnswerer>
    init(_ answerer: PromptAnswerer) { self.answerer = Mutex(answerer) }
    func decide(_ signal: PromptAnswerer.Signal, at now: EpochSeconds) -> PromptAnswerer.Decision {
        answerer.withLock { $0.decide(signal, at: now) }
    }
}
