import SafeWalkCore

/// What the live pages are made of, as a value: each walker's latest ladder, incident, position
/// and walk plan, and the pages web knows. No clock, no broker, no lock: the intake feeds it messages
/// and stores the page records it says changed; the handlers read snapshots from it.
public struct PageBoard: Sendable {
    /// One walker's latest word from each topic.
    public struct Walk: Hashable, Sendable {
        public var ladder: LadderState?
        public var incident: IncidentState?
        public var position: PositionUpdate?
        /// The walk from `{w}/status`, and nothing else of it: the device's state there is a
        /// cancel under duress, so the page's state comes from `incident` alone.
        public var plan: WalkPlan?
    }

    /// A message from the broker, already checked; nil is an empty retained message (a clear).
    public enum Input: Hashable, Sendable {
        case ladder(WalkerID, LadderState?)
        case incident(WalkerID, IncidentState?)
        case position(WalkerID, PositionUpdate?)
        /// The `walk` of `{w}/status` (nil: no walk, or the status was cleared).
        case plan(WalkerID, WalkPlan?)

        var walker: WalkerID {
            switch self {
            case .ladder(let walker, _), .incident(let walker, _), .position(let walker, _), .plan(let walker, _):
                walker
            }
        }
    }

    public private(set) var walks: [WalkerID: Walk] = [:]
    public private(set) var pages: [String: PageRecord] = [:]
    /// "I'm on it" answered yes for a page, shown until the ladder itself says who is on it.
    private var answered: [String: String] = [:]
    /// Positions and walk plans are read for every walker (one wildcard subscription each), but
    /// only walkers with a page need them: past this many walks, those without a live page are forgotten.
    public var maxWalks = 20_000

    public init(pages: [PageRecord] = []) {
        for page in pages { self.pages[page.digest] = page }
    }

    /// Applies `input`; returns the page records it changed (to be stored).
    public mutating func apply(_ input: Input, now: EpochSeconds) -> [PageRecord] {
        let walker = input.walker
        var walk = walks[walker] ?? Walk()
        var changed: [PageRecord] = []
        switch input {
        case .position(_, let position):
            walk.position = position
        case .plan(_, let plan):
            // Never a revocation, unlike a cleared ladder or incident: a status is cleared at
            // every erasure, but those two already say so.
            walk.plan = plan
        case .ladder(_, nil), .incident(_, nil):
            // The walker's account was erased: every page of theirs dies, names and all.
            changed = update(walker) { page in
                page.revoked = true
                page.name = ""
            }
            walks[walker] = nil
            return changed
        case .incident(_, let incident?):
            let before = walk
            walk.incident = incident
            changed = update(walker) { page in
                if page.incident == incident.incident {
                    if incident.state == .closed { page.closedAt = page.closedAt ?? incident.closedAt ?? now }
                } else if Self.isNewer(incident.openedAt, than: page.incident, in: before) {
                    // A walker has one incident at a time: a later one means this one ended.
                    page.closedAt = page.closedAt ?? min(now, incident.openedAt)
                }
            }
        case .ladder(_, let ladder?):
            let before = walk
            walk.ladder = ladder
            let listed = Dictionary(
                ladder.recipients.compactMap { recipient in recipient.page.map { ($0, recipient.name) } },
                uniquingKeysWith: { first, _ in first })
            changed = update(walker) { page in
                if page.incident != ladder.incident {
                    if Self.isNewer(ladder.openedAt, than: page.incident, in: before) {
                        page.closedAt = page.closedAt ?? min(now, ladder.openedAt)
                    }
                } else if listed[page.digest] == nil {
                    page.revoked = true  // no longer on this incident's ladder
                } else if ladder.state == .closed {
                    page.closedAt = page.closedAt ?? ladder.closedAt ?? now
                }
            }
            for (digest, name) in listed where pages[digest] == nil {
                let page = PageRecord(
                    digest: digest, walker: walker, incident: ladder.incident, name: name,
                    closedAt: ladder.state == .closed ? (ladder.closedAt ?? now) : nil)
                pages[digest] = page
                changed.append(page)
            }
            if ladder.acknowledgement != nil { answered = answered.filter { pages[$0.key]?.walker != walker } }
        }
        walks[walker] = walk
        if walks.count > maxWalks { forgetWalksWithoutPages() }
        return changed
    }

    /// The notifier said yes to this page's "I'm on it": shown at once, before its ladder update.
    public mutating func noteAcknowledged(_ digest: String, by name: String) {
        answered[digest] = name
    }

    /// Puts back pages as the store has them (a page the store knows as revoked or closed is so
    /// here too, even if a message re-listed it).
    public mutating func stored(_ records: [PageRecord]) {
        for record in records { pages[record.digest] = record }
    }

    /// Drops pages dead at `now` (they stay dead in the store).
    public mutating func prune(now: EpochSeconds, grace: Double) {
        pages = pages.filter { !$0.value.isDead(at: now, grace: grace) }
        answered = answered.filter { pages[$0.key] != nil }
    }

    /// The page with this digest and what it shows; nil when the board does not know it.
    public func view(_ digest: String) -> (page: PageRecord, walk: Walk, answeredBy: String?)? {
        guard let page = pages[digest] else { return nil }
        return (page, walks[page.walker] ?? Walk(), answered[digest])
    }

    /// Whether any page of `walker` is still in the board.
    public func hasPages(_ walker: WalkerID) -> Bool {
        pages.values.contains { $0.walker == walker }
    }

    private mutating func update(_ walker: WalkerID, _ change: (inout PageRecord) -> Void) -> [PageRecord] {
        var changed: [PageRecord] = []
        for (digest, page) in pages where page.walker == walker {
            var updated = page
            change(&updated)
            if updated != page {
                pages[digest] = updated
                changed.append(updated)
            }
        }
        return changed
    }

    /// Whether an incident opened at `openedAt` came after `incident`. The two topics come from
    /// different services and are read by different tasks, so an older incident's last state may
    /// arrive after a newer ladder: it must not close the newer one's pages. An incident the walk
    /// knows nothing of is older (it is from the store, before this run).
    static func isNewer(_ openedAt: EpochSeconds, than incident: String, in walk: Walk) -> Bool {
        let known = [walk.ladder.map { ($0.incident, $0.openedAt) }, walk.incident.map { ($0.incident, $0.openedAt) }]
            .compactMap { $0 }.first { $0.0 == incident }
        return known.map { openedAt > $0.1 } ?? true
    }

    private mutating func forgetWalksWithoutPages() {
        let kept = Set(pages.values.map(\.walker))
        walks = walks.filter { kept.contains($0.key) }
    }
}
