import SafeWalkCore

/// The circle's command rules, pure: a command, who sent it, the graph and the time in; a
/// ``CircleDecision`` out. Every refusal is an error code and a sentence, never a silent no-op.
struct CircleRules: Sendable {
    var settings: CircleSettings

    func decide(_ command: CircleIntake.Command, from user: WalkerID, in graph: CircleGraph, now: EpochSeconds)
        -> CircleDecision
    {
        switch command.op {
        case .inbox:
            var decision = accepted(command)
            decision.replayInbox = true
            return decision
        case .checkIn: return checkIn(command, user, graph, now)
        case .homeSafe: return homeSafe(command, user, graph, now)
        case .revealOnMissedCheckIn:
            guard let on = command.on else {
                return .refused(command, .invalidCommand, "Say \"on\": true or false.")
            }
            var decision = accepted(command)
            decision.mutations = [.reveal(user, on)]
            decision.touched = [user]
            return decision
        case .checkInRequest where command.user == nil:
            return askEveryone(command, user, graph, now)
        default:
            switch resolve(command, from: user, in: graph) {
            case .failure(let refusal): return refusal.decision
            case .success(let other): return decide(command, user, other, graph, now)
            }
        }
    }

    /// The operations about one other user, once that user is known to exist and not to be `user`.
    private func decide(
        _ command: CircleIntake.Command, _ user: WalkerID, _ other: WalkerID, _ graph: CircleGraph, _ now: EpochSeconds
    ) -> CircleDecision {
        var decision = accepted(command)
        decision.touched = [user, other]
        let event = EventID(command: command, from: user)
        switch command.op {
        case .follow:
            if graph.link(user, follows: other) != nil {
                return .refused(command, .alreadyFollowing, "You already follow \(other).")
            }
            if graph.requestsOut[user]?[other] != nil {
                return .refused(
                    command, .alreadyRequested, "You already asked to follow \(other); they have not answered yet.")
            }
            decision.mutations = [.request(from: user, to: other, at: now)]
            decision.deliver(
                InboxEvent(
                    id: event.id, type: .followRequest, from: user, at: now, text: InboxText.followRequest(user)),
                to: other)
        case .accept, .deny:
            guard graph.requestsOut[other]?[user] != nil else {
                return .refused(command, .noRequest, "\(other) has not asked to follow you.")
            }
            decision.mutations = [.dropRequest(from: other, to: user)]
            if command.op == .accept {
                decision.mutations.append(.follow(follower: other, followee: user, since: now))
                decision.deliver(
                    InboxEvent(
                        id: event.id, type: .followAccepted, from: user, at: now, text: InboxText.followAccepted(user)),
                    to: other)
            } else {
                decision.deliver(
                    InboxEvent(
                        id: event.id, type: .followDenied, from: user, at: now, text: InboxText.followDenied(user)),
                    to: other)
            }
        case .unfollow:
            if graph.link(user, follows: other) != nil {
                decision.mutations = Self.endLink(follower: user, followee: other, in: graph)
            } else if graph.requestsOut[user]?[other] != nil {
                decision.mutations = [.dropRequest(from: user, to: other)]
            } else {
                return .refused(command, .notFollowing, "You do not follow \(other).")
            }
        case .removeFollower:
            guard graph.link(other, follows: user) != nil else {
                return .refused(command, .notAFollower, "\(other) does not follow you.")
            }
            decision.mutations = Self.endLink(follower: other, followee: user, in: graph)
        case .sos, .unsos:
            guard graph.link(user, follows: other) != nil else {
                return .refused(command, .notFollowing, "You can only make someone you follow an SOS contact.")
            }
            let sos = command.op == .sos
            decision.mutations = [.setSOS(follower: user, followee: other, sos)]
            if sos, let incident = graph.incidents[user], incident.state == .open,
                graph.viewers(of: user)[other] != incident.incident
            {
                // Marked during an open incident: they see it from now on.
                decision.mutations.append(.show(walker: user, viewer: other, incident: incident.incident))
                decision.deliver(IncidentSharing.alertEvent(user, incident, graph: graph, now: now), to: other)
            } else if !sos, graph.viewers(of: user)[other] != nil {
                decision.mutations.append(.hide(walker: user, viewer: other))
            }
        case .checkInRequest:
            guard graph.link(user, follows: other) != nil else {
                return .refused(command, .notFollowing, "You can only ask someone you follow to check in.")
            }
            decision = ask([other], command, user, now)
        case .ack:
            guard graph.link(other, follows: user)?.sos == true else {
                return .refused(command, .notAnSOSContact, "\(other) has not made you an SOS contact.")
            }
            guard graph.incidents[other]?.state == .open else {
                return .refused(command, .noOpenIncident, "\(other) has no open alert.")
            }
            // The notifier stops the ladder and answers on `_acks/result`, which updates the views.
            decision.touched = []
            decision.acknowledgement = AcknowledgementRequest(
                id: event.id, via: .app, user: user, walker: other, at: now)
        case .inbox, .checkIn, .homeSafe, .revealOnMissedCheckIn:
            preconditionFailure("handled before resolving a user")
        }
        return decision
    }

    private func checkIn(_ command: CircleIntake.Command, _ user: WalkerID, _ graph: CircleGraph, _ now: EpochSeconds)
        -> CircleDecision
    {
        var decision = accepted(command)
        decision.mutations = (graph.checkIns[user] ?? [:]).keys.sorted().map { .dropCheckIn(asker: $0, asked: user) }
        decision.mutations.append(.checkedIn(user, at: now))
        let followers = graph.followers(of: user)
        let event = EventID(command: command, from: user)
        for follower in followers {
            decision.deliver(
                InboxEvent(
                    id: event.id, type: .checkedIn, from: user, at: now, text: InboxText.checkedIn(user, at: now)),
                to: follower)
        }
        decision.touched = Set(followers).union([user])
        return decision
    }

    private func homeSafe(_ command: CircleIntake.Command, _ user: WalkerID, _ graph: CircleGraph, _ now: EpochSeconds)
        -> CircleDecision
    {
        var decision = accepted(command)
        decision.merge(Self.homeSafe(user, at: now, eventID: EventID(command: command, from: user).id, graph, settings))
        return decision
    }

    /// "Home safe" for `user` from `at`: by the command, or by a walk that ended as `arrived`.
    static func homeSafe(
        _ user: WalkerID, at: EpochSeconds, eventID: String, _ graph: CircleGraph, _ settings: CircleSettings
    ) -> CircleDecision {
        var decision = CircleDecision()
        let home = HomeSafe(at: at, until: at + settings.homeSafeFor)
        decision.mutations = [.homeSafe(user, home)]
        let followers = graph.followers(of: user)
        for follower in followers {
            decision.deliver(
                InboxEvent(
                    id: eventID, type: .homeSafe, from: user, at: at, text: InboxText.homeSafe(user, at: at),
                    until: home.until),
                to: follower)
        }
        decision.touched = Set(followers).union([user])
        return decision
    }

    private func askEveryone(
        _ command: CircleIntake.Command, _ user: WalkerID, _ graph: CircleGraph, _ now: EpochSeconds
    ) -> CircleDecision {
        let followed = (graph.following[user] ?? [:]).keys.sorted()
        guard !followed.isEmpty else {
            return .refused(command, .nobodyToAsk, "You follow nobody yet, so there is nobody to ask.")
        }
        return ask(followed, command, user, now)
    }

    /// Asking again replaces the older request (its time, and a fresh timeout).
    private func ask(_ users: [WalkerID], _ command: CircleIntake.Command, _ asker: WalkerID, _ now: EpochSeconds)
        -> CircleDecision
    {
        var decision = accepted(command)
        decision.result?.count = users.count
        let event = EventID(command: command, from: asker)
        for asked in users {
            decision.mutations.append(.askCheckIn(asker: asker, asked: asked, at: now))
            decision.deliver(
                InboxEvent(
                    id: event.id, type: .checkInRequest, from: asker, at: now, text: InboxText.checkInRequest(asker)),
                to: asked)
        }
        decision.touched = Set(users).union([asker])
        return decision
    }

    /// Ends `follower` following `followee`: the link, its SOS mark, the view of an open
    /// incident it gave, and the follower's check-in request.
    static func endLink(follower: WalkerID, followee: WalkerID, in graph: CircleGraph) -> [CircleMutation] {
        var mutations: [CircleMutation] = [.unfollow(follower: follower, followee: followee)]
        if graph.viewers(of: follower)[followee] != nil {
            mutations.append(.hide(walker: follower, viewer: followee))
        }
        if graph.checkIns[followee]?[follower] != nil {
            mutations.append(.dropCheckIn(asker: follower, asked: followee))
        }
        return mutations
    }

    private func resolve(_ command: CircleIntake.Command, from user: WalkerID, in graph: CircleGraph)
        -> Result<WalkerID, Refusal>
    {
        guard let name = command.user else {
            return .failure(Refusal(.refused(command, .invalidCommand, "Say which user (\"user\").")))
        }
        guard let other = graph.member(named: name) else {
            return .failure(Refusal(.refused(command, .unknownUser, "Nobody called '\(name)' uses SafeWalk.")))
        }
        guard other != user else {
            return .failure(Refusal(.refused(command, .followingYourself, "That is you.")))
        }
        return .success(other)
    }

    private func accepted(_ command: CircleIntake.Command) -> CircleDecision {
        CircleDecision(result: CircleResult(id: command.id, op: command.op.rawValue, ok: true))
    }

    /// A refusal carried through `Result`.
    private struct Refusal: Error {
        var decision: CircleDecision
        init(_ decision: CircleDecision) { self.decision = decision }
    }
}

/// An inbox event's id from the command that caused it: the same command sent again makes the
/// same id, which the inbox keeps once.
struct EventID {
    var id: String
    init(command: CircleIntake.Command, from user: WalkerID) {
        id = "\(command.op.rawValue)-\(user)-\(command.id)"
    }
}

extension CircleDecision {
    mutating func merge(_ other: CircleDecision) {
        mutations += other.mutations
        touched.formUnion(other.touched)
        if other.acknowledgement != nil { acknowledgement = other.acknowledgement }
    }
}
