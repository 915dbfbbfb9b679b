import SafeWalkCore

/// What the monitoring desk's board is made of, as a value: each walker's incident (as the
/// services know it), the notifier's ladder, the last position and the watch's status. No clock,
/// no broker, no lock: the intake feeds it checked messages, the handlers read from it, and what
/// leaves it with a position goes through ``DeskPositionRule``.
public struct DeskBoard: Sendable {
    public struct Walker: Hashable, Sendable {
        public var incident: IncidentState?
        public var ladder: LadderState?
        public var position: PositionUpdate?
        public var status: WatchStatus?
    }

    /// A message from the broker, already checked; nil is an empty retained message (a clear).
    public enum Input: Hashable, Sendable {
        case incident(WalkerID, IncidentState?)
        case ladder(WalkerID, LadderState?)
        case position(WalkerID, PositionUpdate?)
        case status(WalkerID, WatchStatus?)

        public var walker: WalkerID {
            switch self {
            case .incident(let walker, _), .ladder(let walker, _), .position(let walker, _), .status(let walker, _):
                walker
            }
        }
    }

    /// Walkers watched now, by what the desk should think of them.
    public struct Counts: Codable, Hashable, Sendable {
        public var safe = 0
        public var checking = 0
        public var alert = 0

        public init(safe: Int = 0, checking: Int = 0, alert: Int = 0) {
            self.safe = safe
            self.checking = checking
            self.alert = alert
        }
    }

    public private(set) var walkers: [WalkerID: Walker] = [:]

    public init() {}

    /// Applies `input`; returns whether anything the board shows changed (a position matters only
    /// while its walker's incident is open: nobody may see it otherwise).
    public mutating func apply(_ input: Input) -> Bool {
        let walker = input.walker
        var entry = walkers[walker] ?? Walker()
        let before = entry
        switch input {
        case .incident(_, let incident): entry.incident = incident
        case .ladder(_, let ladder): entry.ladder = ladder
        case .position(_, let position): entry.position = position
        case .status(_, let status): entry.status = status
        }
        walkers[walker] = entry == Walker() ? nil : entry
        switch input {
        case .position: return DeskPositionRule.mayServe(entry.incident) && before.position != entry.position
        case .status: return before.status.map(Self.bucket) != entry.status.map(Self.bucket)
        default: return before != entry
        }
    }

    /// Every incident open now, oldest first.
    public var openIncidents: [(walker: WalkerID, incident: IncidentState)] {
        walkers.compactMap { walker, entry in
            guard let incident = entry.incident, incident.state == .open else { return nil }
            return (walker, incident)
        }.sorted { ($0.incident.openedAt, $0.walker.rawValue) < ($1.incident.openedAt, $1.walker.rawValue) }
    }

    /// Walkers watched now: `alert` when an incident is open for the services (a duress incident
    /// too, whatever the device shows), else the watch's own state. Counts only, no names.
    public var counts: Counts {
        var counts = Counts()
        for entry in walkers.values {
            if entry.incident?.state == .open {
                counts.alert += 1
                continue
            }
            guard let status = entry.status, status.watching else { continue }
            switch status.state {
            case .safe: counts.safe += 1
            case .checking: counts.checking += 1
            case .alert: counts.alert += 1
            }
        }
        return counts
    }

    /// The walker whose current or last incident has this id.
    public func walker(ofIncident id: String) -> WalkerID? {
        walkers.first { $0.value.incident?.incident == id }?.key
    }

    /// The walker's ladder, if it is about `incident`.
    public func ladder(of walker: WalkerID, incident: String) -> LadderState? {
        walkers[walker]?.ladder.flatMap { $0.incident == incident ? $0 : nil }
    }

    /// The position the desk may be served for `walker`: nil unless ``DeskPositionRule`` allows.
    public func servablePosition(of walker: WalkerID) -> PositionUpdate? {
        guard let entry = walkers[walker], DeskPositionRule.mayServe(entry.incident) else { return nil }
        return entry.position
    }

    /// What of a status the counts read.
    static func bucket(_ status: WatchStatus) -> String { status.watching ? status.state.rawValue : "idle" }
}
