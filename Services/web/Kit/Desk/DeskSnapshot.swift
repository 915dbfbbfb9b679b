import SafeWalkCore

/// What the desk's board and an incident's page send, built from a ``DeskBoard`` and the desk's
/// store. Positions come only from ``DeskBoard/servablePosition(of:)``.
public enum DeskSnapshot {
    public struct Position: Codable, Hashable, Sendable {
        public var lat: Double
        public var lon: Double
        public var acc: Double?
        public var tst: EpochSeconds

        init(_ update: PositionUpdate) {
            lat = update.fix.lat
            lon = update.fix.lon
            acc = update.fix.acc
            tst = update.fix.tst
        }
    }

    public struct Told: Codable, Hashable, Sendable {
        public var name: String
        public var channel: String
        public var tier: Int
        public var toldAt: EpochSeconds?
        public var receipt: String?
    }

    /// One incident on the board.
    public struct Row: Codable, Hashable, Sendable {
        public var incident: String
        public var walker: WalkerID
        public var state: IncidentState.Phase
        public var reason: EscalationReason
        public var level: EscalationLevel
        public var duress: Bool
        public var openedAt: EpochSeconds
        public var closedAt: EpochSeconds?
        public var closedBy: IncidentState.Closer?
        public var closeReason: DeskCloseReason?
        public var tier: Int
        public var told: [Told]
        public var acknowledgement: LadderAcknowledgement?
        public var assignee: String?
        public var position: Position?
    }

    /// A `board` event.
    public struct Board: Codable, Hashable, Sendable {
        public var desk: String
        public var at: EpochSeconds
        public var watching: DeskBoard.Counts
        public var figures: DeskFigures
        public var incidents: [Row]
    }

    /// One line of an incident's timeline.
    public struct Entry: Codable, Hashable, Sendable {
        public var at: EpochSeconds
        public var kind: String
        public var text: String
        /// The operator, for the desk's own lines.
        public var by: String?
    }

    /// An incident's page.
    public struct Incident: Codable, Hashable, Sendable {
        public var desk: String
        public var incident: Row
        public var timeline: [Entry]
    }

    public static func row(
        _ incident: IncidentState, board: DeskBoard, assignee: String?
    ) -> Row {
        let ladder = board.ladder(of: incident.walker, incident: incident.incident)
        let position = incident.state == .open ? board.servablePosition(of: incident.walker) : nil
        return Row(
            incident: incident.incident, walker: incident.walker, state: incident.state, reason: incident.reason,
            level: incident.level, duress: incident.duress, openedAt: incident.openedAt, closedAt: incident.closedAt,
            closedBy: incident.closedBy, closeReason: incident.closeReason, tier: ladder?.tier ?? 0,
            told: (ladder?.recipients ?? []).filter { $0.toldAt != nil }.map {
                Told(name: $0.name, channel: $0.channel, tier: $0.tier, toldAt: $0.toldAt, receipt: $0.receipt)
            },
            acknowledgement: ladder?.acknowledgement, assignee: assignee, position: position.map(Position.init))
    }

    public static func board(
        _ board: DeskBoard, desk: String, at: EpochSeconds, figures: DeskFigures, assignees: [String: String]
    ) -> Board {
        Board(
            desk: desk, at: at, watching: board.counts, figures: figures,
            incidents: board.openIncidents.map {
                row($0.incident, board: board, assignee: assignees[$0.incident.incident])
            })
    }

    /// The ladder's timeline, the incident's own changes and the desk's log, in time order (the
    /// ladder's first on a tie: it says what happened, the desk what was done about it).
    public static func timeline(_ incident: IncidentState, ladder: LadderState?, log: [DeskLogEntry]) -> [Entry] {
        var entries: [Entry] = []
        entries.append(
            Entry(
                at: incident.openedAt, kind: "incident",
                text: "\(incident.walker): \(incident.reason.rawValue), \(incident.level.rawValue)"
                    + (incident.duress ? " (duress PIN)" : "")))
        if incident.state == .closed, let closedAt = incident.closedAt {
            let how =
                incident.closedBy == .desk
                ? "closed by the desk (\(incident.closeReason?.words ?? "no reason"))"
                : "closed by the walker (\(incident.closedBy?.rawValue ?? "unknown"))"
            entries.append(Entry(at: closedAt, kind: "incidentClosed", text: how))
        }
        entries += (ladder?.timeline ?? []).map { Entry(at: $0.at, kind: $0.kind.rawValue, text: $0.text) }
        let ladderCount = entries.count
        entries += log.map { Entry(at: $0.at, kind: "desk." + $0.kind.rawValue, text: $0.text, by: $0.operator) }
        return entries.enumerated().sorted { left, right in
            (left.element.at, left.offset < ladderCount ? 0 : 1, left.offset)
                < (right.element.at, right.offset < ladderCount ? 0 : 1, right.offset)
        }.map(\.element)
    }
}
