import Foundation
import SafeWalkCore

/// What one contact's page shows at one moment: rendered as HTML on the first load and sent as
/// JSON on its event stream. Built only by ``make(page:walk:answeredBy:now:)``, which is where the
/// privacy rules live: a closed incident carries no position and no walk at all, and a duress
/// shows as what the services know (open, red), never as the cancel the walker's device was shown.
public struct PageSnapshot: Codable, Hashable, Sendable {
    public struct Position: Codable, Hashable, Sendable {
        public var lat: Double
        public var lon: Double
        /// Accuracy radius in metres, when known.
        public var acc: Double?
        /// When the phone took the fix.
        public var tst: EpochSeconds
        public var batt: Double?
        public var maps: String
    }

    /// Where the walker said they were going, and by when.
    public struct Walk: Codable, Hashable, Sendable {
        public var destination: String
        public var eta: EpochSeconds
    }

    public struct Person: Codable, Hashable, Sendable {
        public var name: String
        public var tier: Int
        public var told: Bool
    }

    public struct Entry: Codable, Hashable, Sendable {
        public var at: EpochSeconds
        public var text: String
    }

    public var walker: String
    /// `open`, `closed`, or `waiting` (the page is known but its incident's news not yet read).
    public var state: String
    public var level: String?
    /// One sentence for the heading: "alice needs help now: they asked for help".
    public var headline: String
    public var closedAt: EpochSeconds?
    public var position: Position?
    public var walk: Walk?
    /// "You are on it" or "Sam is on it"; nil while nobody is.
    public var onIt: String?
    public var people: [Person]
    public var timeline: [Entry]
    /// Server time, so the page computes ages against the same clock.
    public var now: EpochSeconds

    public static func make(page: PageRecord, walk: PageBoard.Walk, answeredBy: String?, now: EpochSeconds)
        -> PageSnapshot
    {
        let walker = page.walker.rawValue
        let ladder = walk.ladder.flatMap { $0.incident == page.incident ? $0 : nil }
        let incident = walk.incident.flatMap { $0.incident == page.incident ? $0 : nil }
        let people = (ladder?.recipients ?? []).map { Person(name: $0.name, tier: $0.tier, told: $0.toldAt != nil) }
        let timeline = (ladder?.timeline ?? []).map { Entry(at: $0.at, text: $0.text) }
        let closedAt =
            page.closedAt ?? (incident?.state == .closed ? incident?.closedAt ?? now : nil)
            ?? (ladder?.state == .closed ? ladder?.closedAt ?? now : nil)
        if let closedAt {
            return PageSnapshot(
                walker: walker, state: "closed", level: nil,
                headline: "\(walker) is safe (at \(Self.clock(closedAt)))", closedAt: closedAt, position: nil,
                walk: nil, onIt: nil, people: people, timeline: timeline, now: now)
        }
        guard let level = incident?.level ?? ladder?.level, let reason = incident?.reason ?? ladder?.reason else {
            return PageSnapshot(
                walker: walker, state: "waiting", level: nil, headline: "Waiting for news of \(walker)…",
                closedAt: nil, position: nil, walk: nil, onIt: nil, people: people, timeline: timeline, now: now)
        }
        let by = ladder?.acknowledgement?.by ?? answeredBy
        return PageSnapshot(
            walker: walker, state: "open", level: level.rawValue,
            headline: "\(walker) \(level == .red ? "needs help now" : "may need help"): \(Self.words(reason))",
            closedAt: nil, position: walk.position.map(Self.position),
            walk: walk.plan.map { Walk(destination: $0.destination, eta: $0.eta) },
            onIt: by.map { $0 == page.name ? "You are on it" : "\($0) is on it" },
            people: people, timeline: timeline, now: now)
    }

    /// The reason in words, completing "{walker} may need help: …".
    public static func words(_ reason: EscalationReason) -> String {
        switch reason {
        case .noReply: "they did not answer a check-in"
        case .noMovement: "they have not moved for a while"
        case .walkOverdue: "they have not arrived when they expected to"
        case .needHelp: "they asked for help"
        case .panic: "they pressed the panic button"
        case .trackerOffline: "their phone stopped reporting"
        case .wrongPin: "a wrong PIN was entered several times"
        }
    }

    /// `14:05 UTC`: the page's script rewrites it in the reader's own time zone.
    static func clock(_ at: EpochSeconds) -> String { UTCClockText.hoursAndMinutes(at) }

    static func position(_ update: PositionUpdate) -> Position {
        let fix = update.fix
        return Position(
            lat: fix.lat, lon: fix.lon, acc: fix.acc, tst: fix.tst, batt: fix.batt,
            maps: "https://maps.google.com/?q=\(fix.lat),\(fix.lon)")
    }
}
