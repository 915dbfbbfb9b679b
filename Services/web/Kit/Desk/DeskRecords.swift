import Foundation
import GRDB
import SafeWalkCore

/// One look an operator took at a walker's incident: the audit's row (`desk_views`).
public struct DeskView: Codable, Hashable, Sendable {
    /// What the operator opened.
    public enum What: String, Codable, CaseIterable, Hashable, Sendable {
        /// The incident's page (its timeline, and its last position while open).
        case incident
        /// The incident's position stream.
        case positions
        /// The walker's position route.
        case position
        /// The board's map, which carried the incident's position to the operator.
        case board
    }

    public var id: String
    public var walker: WalkerID
    public var incident: String
    public var `operator`: String
    public var what: What
    public var at: EpochSeconds
    public var duress: Bool

    public init(
        id: String = UUID().uuidString.lowercased(), walker: WalkerID, incident: String, operator: String, what: What,
        at: EpochSeconds, duress: Bool
    ) {
        self.id = id
        self.walker = walker
        self.incident = incident
        self.operator = `operator`
        self.what = what
        self.at = at
        self.duress = duress
    }

    init?(row: Row) {
        guard let walker = WalkerID(validating: row["walker"]), let what = What(rawValue: row["what"]) else {
            return nil
        }
        self.init(
            id: row["id"], walker: walker, incident: row["incident"], operator: row["operator"], what: what,
            at: row["at"], duress: row["duress"])
    }
}

/// One line of the desk's own log of an incident (`desk_log`).
public struct DeskLogEntry: Codable, Hashable, Sendable {
    public enum Kind: String, Codable, CaseIterable, Hashable, Sendable {
        case acknowledged, note, handover, closed, viewed
    }

    public var incident: String
    public var at: EpochSeconds
    public var kind: Kind
    public var `operator`: String
    public var text: String
    /// `handover`: to whom.
    public var assignee: String?

    public init(
        incident: String, at: EpochSeconds, kind: Kind, operator: String, text: String, assignee: String? = nil
    ) {
        self.incident = incident
        self.at = at
        self.kind = kind
        self.operator = `operator`
        self.text = text
        self.assignee = assignee
    }

    init?(row: Row) {
        guard let kind = Kind(rawValue: row["kind"]) else { return nil }
        self.init(incident: row["incident"], at: row["at"], kind: kind, operator: row["operator"], text: row["text"])
    }
}

/// An incident's times as the desk saw them (`desk_incidents`), for its figures.
public struct DeskIncidentTimes: Hashable, Sendable {
    public var incident: String
    public var walker: WalkerID
    public var openedAt: EpochSeconds
    public var firstAckAt: EpochSeconds?
    public var closedAt: EpochSeconds?
}
