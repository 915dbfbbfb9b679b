import SafeWalkCore

/// The circle's two clocks, pure: a check-in request that has waited its timeout, and a "home
/// safe" that has run out. The service sleeps until ``nextDeadline(in:settings:)`` and then asks
/// ``due(in:settings:now:)`` what to do; tests move a virtual `now`.
enum CircleTimers {
    static func nextDeadline(in graph: CircleGraph, settings: CircleSettings) -> EpochSeconds? {
        let requests = graph.checkIns.values.lazy.flatMap(\.values).filter { !$0.revealed }
            .map { $0.at + settings.checkInRequestTimeout }
        let homes = graph.homeSafe.values.lazy.map(\.until)
        return [requests.min(), homes.min()].compactMap { $0 }.min()
    }

    static func due(in graph: CircleGraph, settings: CircleSettings, now: EpochSeconds) -> CircleDecision {
        var decision = CircleDecision()
        for (asked, askers) in graph.checkIns.sorted(by: { $0.key < $1.key }) {
            for (asker, request) in askers.sorted(by: { $0.key < $1.key })
            where !request.revealed && request.at + settings.checkInRequestTimeout <= now {
                decision.mutations.append(.markRevealed(asker: asker, asked: asked))
                guard mayReveal(asked, to: asker, in: graph) else { continue }
                let key = "\(asker)-\(asked)-\(Int(request.at * 1000))"
                decision.deliver(
                    InboxEvent(
                        id: "lastKnown-\(key)", type: .lastKnown, from: asked, at: now,
                        text: InboxText.lastKnown(asked), position: graph.positions[asked],
                        status: graph.states[asked]),
                    to: asker)
                decision.deliver(
                    InboxEvent(
                        id: "seen-\(key)", type: .seen, from: asker, at: now, text: InboxText.seen(by: asker, at: now)),
                    to: asked)
            }
        }
        for (user, home) in graph.homeSafe.sorted(by: { $0.key < $1.key }) where !home.isShown(at: now) {
            decision.mutations.append(.homeSafe(user, nil))
            decision.touched.formUnion(graph.followers(of: user))
            decision.touched.insert(user)
        }
        return decision
    }

    /// The one rule for showing someone's last known position after a missed check-in request:
    /// they turned it on, and the asker is one of their SOS contacts. Anything looser would make
    /// a check-in request a way to locate someone on demand.
    static func mayReveal(_ asked: WalkerID, to asker: WalkerID, in graph: CircleGraph) -> Bool {
        graph.revealing.contains(asked) && graph.link(asked, follows: asker)?.sos == true
    }
}
