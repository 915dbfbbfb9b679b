import Foundation
import SafeWalkCore

@testable import ContactsStoreKit

func user(_ name: String) -> WalkerID { WalkerID(validating: name)! }

func command(_ op: CircleCommand.Operation, _ other: String? = nil, id: String = "c1", on: Bool? = nil)
    -> CircleIntake.Command
{
    CircleIntake.Command(id: id, op: op, user: other, on: on)
}

/// A graph built the way the service builds it: by applying decisions.
struct CircleWorld {
    var graph = CircleGraph()
    var rules = CircleRules(settings: CircleSettings())
    var now: EpochSeconds = 1_760_000_000

    init(members: [String]) {
        for name in members { graph.apply(.addMember(user(name), since: 0)) }
    }

    /// Applies `op` from `by` and returns the decision; fails the caller's expectation if refused
    /// only when the caller checks.
    @discardableResult
    mutating func run(_ by: String, _ op: CircleCommand.Operation, _ other: String? = nil, on: Bool? = nil)
        -> CircleDecision
    {
        let decision = rules.decide(command(op, other, on: on), from: user(by), in: graph, now: now)
        if decision.result?.ok == true { graph.apply(decision.mutations) }
        return decision
    }

    /// `follower` follows `followee` (asked and accepted).
    mutating func connect(_ follower: String, to followee: String, sos: Bool = false) {
        run(follower, .follow, followee)
        run(followee, .accept, follower)
        if sos { run(follower, .sos, followee) }
    }

    @discardableResult
    mutating func open(_ walker: String, level: EscalationLevel = .red, duress: Bool = false, id: String = "inc-1")
        -> CircleDecision
    {
        let incident = IncidentState(
            incident: id, walker: user(walker), state: .open, reason: .panic, level: level, duress: duress,
            openedAt: now)
        graph.incidents[user(walker)] = incident
        let decision = IncidentSharing.decide(incident, graph: graph, now: now)
        graph.apply(decision.mutations)
        return decision
    }

    @discardableResult
    mutating func close(_ walker: String, id: String = "inc-1") -> CircleDecision {
        let incident = IncidentState(
            incident: id, walker: user(walker), state: .closed, reason: .panic, level: .red, duress: false,
            openedAt: now - 60, closedAt: now, closedBy: .imSafe)
        graph.incidents[user(walker)] = nil
        let decision = IncidentSharing.decide(incident, graph: graph, now: now)
        graph.apply(decision.mutations)
        return decision
    }
}

extension CircleDecision {
    var code: CircleError.Code? { result?.error?.code }
    func events(to name: String) -> [InboxEvent] { deliveries.filter { $0.to == user(name) }.map(\.event) }
}
