import Foundation
import Logging
import Metrics
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import ServiceLifecycle
import Synchronization

/// The monitoring desk's broker side (docs/services/web.md, "The monitoring desk"): reads every
/// walker's incident, ladder, position and status into a ``DeskBoard``, wakes the desk's event
/// streams, closes incidents through the watchdog (`_desk/close` → `_desk/result`), and tells
/// each walker who of the desk looked at their alert (`{w}/desk`). Its actions and the audit are
/// in `Desk+Actions.swift` and `Desk+Audit.swift`.
///
/// Like the live pages, it reads positions and statuses through one wildcard subscription each
/// (``LivePages`` says why); what it may serve of a position is ``DeskPositionRule``'s to say.
public final class Desk: Service, Sendable {
    /// What the board's streams watch.
    enum Watch: Hashable, Sendable { case board }

    let bus: any MessageBus
    let prefix: String
    let database: WebDatabase
    let settings: DeskSettings
    let logger: Logger
    let reporter: RejectionReporter
    let now: @Sendable () -> EpochSeconds
    /// "I'm on it" goes through the live pages' path to the notifier (one waiter on `_acks/result`).
    let live: LivePages
    let board = Mutex(DeskBoard())
    let boards = Watchers<Watch>()
    /// The incidents' position streams, by walker.
    let walkers = Watchers<WalkerID>()
    let closes = AwaitedAnswers<String, DeskCloseResult>()
    let figures = Mutex(DeskFigures(ack: [], close: []))
    let subscriptions: [MQTTSubscription]

    /// Subscribes (answers first, so none precedes its reader) and reads the figures kept so far.
    public static func connect(
        bus: any MessageBus, prefix: String, database: WebDatabase, settings: DeskSettings, live: LivePages,
        logger: Logger, now: @escaping @Sendable () -> EpochSeconds = { Date().timeIntervalSince1970 }
    ) async throws -> Desk {
        var subscriptions: [MQTTSubscription] = []
        subscriptions.append(try await bus.subscribe(Topic.deskResult.name(prefix: prefix), qos: .atLeastOnce))
        for kind in [Topic.Kind.incident, .ladder, .position, .status] {
            subscriptions.append(
                try await bus.subscribe(TopicFilter.every(kind, prefix: prefix).rawValue, qos: .atLeastOnce))
        }
        let desk = Desk(
            bus: bus, prefix: prefix, database: database, settings: settings, live: live, logger: logger, now: now,
            subscriptions: subscriptions)
        try await desk.refreshFigures()
        return desk
    }

    init(
        bus: any MessageBus, prefix: String, database: WebDatabase, settings: DeskSettings, live: LivePages,
        logger: Logger, now: @escaping @Sendable () -> EpochSeconds, subscriptions: [MQTTSubscription]
    ) {
        self.bus = bus
        self.prefix = prefix
        self.database = database
        self.settings = settings
        self.live = live
        self.logger = logger
        self.now = now
        self.subscriptions = subscriptions
        reporter = RejectionReporter(service: .web, prefix: prefix, bus: bus, logger: logger)
    }

    public func run() async throws {
        await subscriptions.receiveUntilShutdown { [self] message in await receive(message) }
        boards.finishAll()
        walkers.finishAll()
        closes.failAll(CancellationError())
    }

    /// Event streams open now (tests).
    public var openStreams: Int { boards.count + walkers.count }

    // MARK: Intake

    static let maxAnswerBytes = 1_024

    func receive(_ message: MQTTMessage) async {
        guard let topic = Topic.parse(message.topic, prefix: prefix) else {
            await reporter.reject(reason: "invalid_topic", topicKind: .incident, now: now())
            return
        }
        if topic.kind == .deskResult {
            receiveAnswer(message)
            return
        }
        guard let walker = topic.walker else {
            await reporter.reject(reason: "unexpected_topic", topicKind: topic.kind, now: now())
            return
        }
        let input: DeskBoard.Input
        do {
            input = try Self.read(message.payload, kind: topic.kind, walker: walker)
        } catch {
            await reporter.reject(reason: error.code, topicKind: topic.kind, walker: walker, now: now())
            return
        }
        let changed = board.withLock { $0.apply(input) }
        switch input {
        case .incident(_, let incident?):
            await noteTimes(of: incident, ladder: nil)
            await sendWaitingNotices(of: walker)
        case .ladder(_, let ladder?):
            if let acknowledgement = ladder.acknowledgement {
                await note(
                    DeskIncidentTimes(
                        incident: ladder.incident, walker: walker, openedAt: ladder.openedAt,
                        firstAckAt: acknowledgement.at))
            }
        default: break
        }
        if changed {
            boards.changed(.board)
            walkers.changed(walker)
        }
    }

    /// The reader's rules (docs/CONTRACT.md), as the live pages apply them to the same topics; a
    /// status is read whole (the board counts its state).
    static func read(_ payload: Data, kind: Topic.Kind, walker: WalkerID) throws(PayloadError) -> DeskBoard.Input {
        switch kind {
        case .status:
            guard !payload.isEmpty else { return .status(walker, nil) }
            return .status(
                walker, try SafeWalkJSON.decode(WatchStatus.self, from: payload, maxBytes: LivePages.maxStatusBytes))
        case .incident, .ladder, .position:
            switch try LivePages.read(payload, kind: kind, walker: walker) {
            case .incident(_, let incident): return .incident(walker, incident)
            case .ladder(_, let ladder): return .ladder(walker, ladder)
            case .position(_, let position): return .position(walker, position)
            case .plan: throw .invalidValue("kind")
            }
        default:
            throw .invalidValue("topic")
        }
    }

    func receiveAnswer(_ message: MQTTMessage) {
        guard
            let result = try? SafeWalkJSON.decode(
                DeskCloseResult.self, from: message.payload, maxBytes: Self.maxAnswerBytes)
        else {
            logger.error("unreadable desk close answer ignored", metadata: ["bytes": "\(message.payload.count)"])
            return
        }
        if !closes.deliver(result, for: result.id) {
            logger.debug("desk close answer nobody waits for", metadata: ["id": "\(result.id)"])
        }
    }

    // MARK: Figures

    private func noteTimes(of incident: IncidentState, ladder: LadderState?) async {
        await note(
            DeskIncidentTimes(
                incident: incident.incident, walker: incident.walker, openedAt: incident.openedAt,
                closedAt: incident.state == .closed ? incident.closedAt : nil))
        if incident.state == .closed {
            do {
                try await refreshFigures()
            } catch {
                logger.error("desk figures not read", metadata: ["error": "\(error)"])
            }
        }
    }

    private func note(_ times: DeskIncidentTimes) async {
        do {
            try await database.noteIncident(times)
        } catch {
            logger.error(
                "desk incident times not stored", metadata: ["incident": "\(times.incident)", "error": "\(error)"])
        }
    }

    /// Reads the figures again from the store and sets the Prometheus gauges.
    func refreshFigures() async throws {
        let (ack, close) = try await database.deskDurations()
        let fresh = DeskFigures(ack: ack, close: close)
        figures.withLock { $0 = fresh }
        for (name, spread) in [("ack", fresh.ack), ("close", fresh.close)] {
            for (quantile, value) in [("0.5", spread.p50), ("0.95", spread.p95)] {
                Gauge(label: "safewalk_desk_time_to_\(name)_seconds", dimensions: [("quantile", quantile)])
                    .record(value ?? 0)
            }
        }
        boards.changed(.board)
    }

    /// The board as a stream sends it.
    func boardSnapshot() async throws -> DeskSnapshot.Board {
        let (copy, open) = board.withLock { ($0, $0.openIncidents.map(\.incident.incident)) }
        let assignees = try await database.assignees(open)
        Gauge(label: "safewalk_desk_open_incidents").record(open.count)
        return DeskSnapshot.board(
            copy, desk: settings.name, at: now(), figures: figures.withLock { $0 }, assignees: assignees)
    }
}
