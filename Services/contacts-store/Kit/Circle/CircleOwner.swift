import Foundation
import Logging
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService

/// The circle's IO shell: reads each input, asks the pure rules what it means, saves that in one
/// transaction, applies it to the graph in memory, then publishes. One task runs it (inputs come
/// through ``CircleService``'s queue), so no two inputs ever interleave.
final class CircleOwner {
    let bus: any MessageBus
    let prefix: String
    let store: CircleStore
    let rules: CircleRules
    let clock: any ServiceClock
    let reporter: RejectionReporter
    let logger: Logger
    /// Walkers whose positions matter now; read by the subscription tasks to drop the rest of
    /// the position stream before decoding it.
    let interest: WatchedWalkers
    private(set) var graph: CircleGraph
    /// `ack` commands handed to the notifier, by acknowledgement id, until it answers.
    private var awaitingNotifier: [String: (user: WalkerID, command: CircleResult, other: WalkerID)] = [:]

    init(
        bus: any MessageBus, prefix: String, store: CircleStore, graph: CircleGraph, settings: CircleSettings,
        clock: any ServiceClock, reporter: RejectionReporter, logger: Logger, interest: WatchedWalkers
    ) {
        self.bus = bus
        self.prefix = prefix
        self.store = store
        self.graph = graph
        self.rules = CircleRules(settings: settings)
        self.clock = clock
        self.reporter = reporter
        self.logger = logger
        self.interest = interest
        interest.replace(with: graph.watchedWalkers)
    }

    var nextDeadline: EpochSeconds? { CircleTimers.nextDeadline(in: graph, settings: rules.settings) }

    /// Whether the last inputs may have moved the next deadline: finding it scans every open
    /// check-in request and "home safe", which a position (the hot path) never changes.
    private var deadlinesChanged = true

    /// The next deadline when it may have moved since the last call (nil: leave the alarm as is).
    func movedDeadline() -> EpochSeconds?? {
        guard deadlinesChanged else { return .none }
        deadlinesChanged = false
        return .some(nextDeadline)
    }

    /// At start: every circle and open view again (retained, so republishing is harmless and
    /// heals a crash between a save and its publish), then the inbox events not yet published.
    func start() async throws {
        let now = clock.now()
        for user in graph.everyone.sorted() { try await publishCircle(of: user, now: now) }
        try await sendUnsent()
        logger.info("circle published", metadata: ["users": "\(graph.everyone.count)"])
    }

    func handle(_ input: CircleInput) async throws {
        switch input {
        case .message(let message): try await handle(message)
        case .timer:
            deadlinesChanged = true
            try await carryOut(CircleTimers.due(in: graph, settings: rules.settings, now: clock.now()))
        case .erase(let user, let done):
            do {
                try await erase(user)
                done(true)
            } catch {
                logger.error("circle not erased", metadata: ["walker": "\(user)", "error": "\(error)"])
                done(false)
            }
        }
    }

    private func handle(_ message: MQTTMessage) async throws {
        guard let topic = Topic.parse(message.topic, prefix: prefix) else { return }
        guard let walker = topic.walker else {
            // `_acks/result` is no one walker's topic: the walker is in the answer.
            if topic.kind == .acknowledgementResult { try await acknowledgementResult(message.payload) }
            return
        }
        switch topic.kind {
        case .circleCommand: try await command(message)
        case .member: try await member(walker, message.payload)
        case .incident:
            guard let incident = try? SafeWalkJSON.decode(IncidentState.self, from: message.payload),
                incident.walker == walker
            else { return }
            try await incidentChanged(incident)
        case .escalation:
            guard let escalation = try? SafeWalkJSON.decode(EscalationEvent.self, from: message.payload) else { return }
            try await escalated(escalation, walker: walker)
        case .position:
            guard graph.needsPosition(of: walker),
                let update = try? PositionUpdate.decode(message.payload)
            else { return }
            try await moved(walker, to: SharedPosition(update.fix))
        case .status:
            guard graph.revealing.contains(walker),
                let status = try? SafeWalkJSON.decode(WatchStatus.self, from: message.payload)
            else { return }
            graph.states[walker] = status.state
        case .arrival:
            guard let arrival = try? SafeWalkJSON.decode(Arrival.self, from: message.payload), arrival.walker == walker
            else { return }
            try await arrived(walker, at: arrival.at)
        default:
            return
        }
    }

    // MARK: Commands

    private func command(_ message: MQTTMessage) async throws {
        let now = clock.now()
        switch CircleIntake.read(topic: message.topic, payload: message.payload, prefix: prefix) {
        case .invalidTopic:
            await reporter.reject(reason: "invalid_topic", topicKind: .circleCommand, walker: nil, now: now)
        case .unreadable(let walker, let id, let op, let why):
            await reporter.reject(reason: "invalid_command", topicKind: .circleCommand, walker: walker, now: now)
            try await answer(
                CircleResult(id: id, op: op, ok: false, error: CircleError(.invalidCommand, message: why)), to: walker)
        case .command(let walker, let command):
            if let earlier = try await store.answer(to: command.id, from: walker) {
                try await answer(earlier, to: walker)  // a repeat: the same answer, nothing applied again
                return
            }
            let decision = rules.decide(command, from: walker, in: graph, now: now)
            if decision.result?.ok == false {
                logger.info(
                    "circle command refused",
                    metadata: [
                        "walker": "\(walker)", "op": "\(command.op.rawValue)",
                        "code": "\(decision.result?.error?.code.rawValue ?? "")",
                    ])
            }
            do {
                try await carryOut(decision, answering: walker)
            } catch let error as StoreFailure {
                logger.error("circle command not saved", metadata: ["walker": "\(walker)", "error": "\(error.cause)"])
                try await answer(
                    CircleResult(
                        id: command.id, op: command.op.rawValue, ok: false,
                        error: CircleError(.storeError, message: "The change could not be saved. Please try again.")),
                    to: walker)
            }
        }
    }

    // MARK: What others publish

    private func member(_ user: WalkerID, _ payload: Data) async throws {
        if payload.isEmpty {
            guard graph.isMember(user) else { return }
            try await carryOut(CircleDecision(mutations: [.removeMember(user)]))
        } else if let member = try? SafeWalkJSON.decode(Member.self, from: payload), member.user == user,
            !graph.isMember(user)
        {
            // A new account gets its (empty) circle at once, so its app has something retained to show.
            var decision = CircleDecision(mutations: [.addMember(user, since: member.since)])
            decision.touched = [user]
            try await carryOut(decision)
        }
    }

    private func incidentChanged(_ incident: IncidentState) async throws {
        let walker = incident.walker
        if let previous = graph.incidents[walker], previous.incident != incident.incident || incident.state == .closed {
            graph.acknowledgedBy[previous.incident] = nil
            graph.notes[previous.incident] = nil
        }
        graph.incidents[walker] = incident.state == .open ? incident : nil
        let decision = IncidentSharing.decide(incident, graph: graph, now: clock.now())
        try await carryOut(decision)
        // A newly shown view went out with the decision; a raise changes the views already shown.
        if incident.state == .open, decision.sharesShown.isEmpty { try await publishShared(walker) }
    }

    private func escalated(_ escalation: EscalationEvent, walker: WalkerID) async throws {
        guard escalation.walker == walker else { return }
        if let note = escalation.note { graph.notes[escalation.incident] = note }
        if let fix = escalation.lastFix, (graph.positions[walker]?.tst ?? -.infinity) < fix.tst {
            graph.positions[walker] = SharedPosition(lat: fix.lat, lon: fix.lon, acc: fix.acc, tst: fix.tst)
        }
        if graph.viewers(of: walker).isEmpty == false { try await publishShared(walker) }
    }

    private func moved(_ walker: WalkerID, to position: SharedPosition) async throws {
        if let known = graph.positions[walker], known.tst > position.tst { return }
        graph.positions[walker] = position
        if graph.viewers(of: walker).isEmpty == false { try await publishShared(walker) }
    }

    private func acknowledgementResult(_ payload: Data) async throws {
        guard let result = try? SafeWalkJSON.decode(AcknowledgementResult.self, from: payload) else { return }
        if let asked = awaitingNotifier.removeValue(forKey: result.id) {
            try await answer(
                CircleAcknowledgement.answer(to: asked.command, of: asked.other, from: result), to: asked.user)
        }
        guard result.ok, let walker = result.walker, let incident = result.incident, let by = result.by else { return }
        try await acknowledged(walker: walker, incident: incident, by: by)
    }

    private func acknowledged(walker: WalkerID, incident: String, by: String) async throws {
        let decision = IncidentSharing.acknowledged(
            walker: walker, incident: incident, by: by, graph: graph, now: clock.now())
        guard graph.incidents[walker]?.incident == incident, graph.acknowledgedBy[incident] == nil else { return }
        graph.acknowledgedBy[incident] = by
        try await carryOut(decision)
        try await publishShared(walker)
    }

    /// A walk that ended as `arrived` (`_arrivals/{w}`): home safe for the circle.
    private func arrived(_ walker: WalkerID, at: EpochSeconds) async throws {
        try await carryOut(
            CircleRules.homeSafe(
                walker, at: at, eventID: "arrived-\(walker)-\(Int(at * 1000))", graph, rules.settings))
    }

    // MARK: Erasure

    private func erase(_ user: WalkerID) async throws {
        var touched = graph.everyoneLinked(to: user)
        touched.remove(user)
        let viewersOfUser = graph.viewers(of: user).keys
        let shownToUser = graph.shown.compactMap { walker, viewers in viewers[user] != nil ? walker : nil }
        _ = try await store.commit([.erase(user)], now: clock.now())
        graph.apply(.erase(user))
        refreshInterest()
        let now = clock.now()
        for viewer in viewersOfUser { try await clearShared(viewer: viewer, of: user) }
        for walker in shownToUser { try await clearShared(viewer: user, of: walker) }
        try await bus.publish(Topic.circle(user).name(prefix: prefix), payload: Data(), qos: .atLeastOnce, retain: true)
        for other in touched.sorted() { try await publishCircle(of: other, now: now) }
    }

    // MARK: Carrying out a decision

    /// A failed save, told apart from a failed publish: the first is answered `storeError`.
    struct StoreFailure: Error {
        var cause: any Error
    }

    private func carryOut(_ decision: CircleDecision, answering user: WalkerID? = nil) async throws {
        let now = clock.now()
        var decision = decision
        var replay: [InboxEvent] = []
        if decision.replayInbox, let user {
            replay = try await store.inbox(of: user, now: now)
            decision.result?.count = replay.count
        }
        let answer = user.flatMap { user in decision.result.map { (user: user, result: $0) } }
        let fresh: [CircleStore.Pending]
        do {
            fresh = try await store.commit(decision.mutations, answer: answer, now: now)
        } catch {
            throw StoreFailure(cause: error)
        }
        graph.apply(decision.mutations)
        if decision.mutations.contains(where: \.changesInterest) { refreshInterest() }
        if decision.mutations.contains(where: \.changesDeadlines) { deadlinesChanged = true }
        if let user {
            // The kept events first, so the answer (with their count) marks the end of them.
            for event in replay {
                try await bus.publish(
                    Topic.inbox(user).name(prefix: prefix), payload: try SafeWalkJSON.encode(event), qos: .atLeastOnce)
            }
        }
        // Views before the answer: a phone told "ok" finds its retained circle already changed.
        for user in decision.touched.sorted() { try await publishCircle(of: user, now: now) }
        for (walker, viewer) in decision.sharesHidden { try await clearShared(viewer: viewer, of: walker) }
        for walker in Set(decision.sharesShown.map(\.walker)).sorted() { try await publishShared(walker) }
        if let answer {
            if let acknowledgement = decision.acknowledgement, let other = acknowledgement.walker {
                // "I'm on it" is answered when the notifier has put it on the ladder, or said why not.
                awaitingNotifier[acknowledgement.id] = (answer.user, answer.result, other)
            } else {
                try await self.answer(answer.result, to: answer.user)
            }
        }
        if let acknowledgement = decision.acknowledgement {
            try await bus.publish(
                Topic.acknowledgementRequest.name(prefix: prefix), payload: try SafeWalkJSON.encode(acknowledgement),
                qos: .atLeastOnce)
        }
        try await send(fresh)
    }

    private func send(_ events: [CircleStore.Pending]) async throws {
        for pending in events {
            try await bus.publish(
                Topic.inbox(pending.user).name(prefix: prefix), payload: try SafeWalkJSON.encode(pending.event),
                qos: .atLeastOnce)
        }
        try await store.markSent(events)
    }

    private func sendUnsent() async throws {
        while true {
            let batch = try await store.unsent()
            guard !batch.isEmpty else { return }
            try await send(batch)
        }
    }

    private func refreshInterest() {
        interest.replace(with: graph.watchedWalkers)
    }

    // MARK: Publishing

    private func answer(_ result: CircleResult, to user: WalkerID) async throws {
        try await bus.publish(
            Topic.circleResult(user).name(prefix: prefix), payload: try SafeWalkJSON.encode(result), qos: .atLeastOnce)
    }

    private func publishCircle(of user: WalkerID, now: EpochSeconds) async throws {
        let view = CircleViews.circle(of: user, in: graph, now: now)
        try await bus.publish(
            Topic.circle(user).name(prefix: prefix), payload: try SafeWalkJSON.encode(view), qos: .atLeastOnce,
            retain: true)
    }

    /// `walker`'s live view for each user shown it.
    private func publishShared(_ walker: WalkerID) async throws {
        guard let view = CircleViews.shared(walker, in: graph, now: clock.now()) else { return }
        let payload = try SafeWalkJSON.encode(view)
        for viewer in graph.viewers(of: walker).keys.sorted() {
            try await bus.publish(
                Topic.shared(for: viewer, of: walker, prefix: prefix), payload: payload, qos: .atLeastOnce, retain: true
            )
        }
    }

    private func clearShared(viewer: WalkerID, of walker: WalkerID) async throws {
        try await bus.publish(
            Topic.shared(for: viewer, of: walker, prefix: prefix), payload: Data(), qos: .atLeastOnce, retain: true)
    }
}

extension CircleDecision {
    init(mutations: [CircleMutation]) {
        self.init()
        self.mutations = mutations
    }
}

extension CircleMutation {
    /// Whether the circle's next deadline may have changed.
    var changesDeadlines: Bool {
        switch self {
        case .askCheckIn, .dropCheckIn, .markRevealed, .homeSafe, .erase: true
        default: false
        }
    }

    /// Whether the walkers whose positions matter may have changed.
    var changesInterest: Bool {
        switch self {
        case .show, .hide, .reveal, .erase: true
        default: false
        }
    }
}

extension CircleGraph {
    /// Everyone whose circle mentions `user`.
    func everyoneLinked(to user: WalkerID) -> Set<WalkerID> {
        var linked = Set((following[user] ?? [:]).keys).union(followers[user] ?? [])
        linked.formUnion((requestsOut[user] ?? [:]).keys)
        linked.formUnion(requestsIn[user] ?? [])
        linked.formUnion((checkIns[user] ?? [:]).keys)
        for (asked, askers) in checkIns where askers[user] != nil { linked.insert(asked) }
        return linked
    }
}
