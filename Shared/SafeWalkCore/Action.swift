/// A command from the device on `{w}/action`, e.g.
/// `{"v":1,"action":"startWalk","id":"a1","destination":"Library","minutes":12}`.
///
/// Fail-safe decoding: a `panic` whose `level` is missing or unrecognised is read as `red`
/// rather than refused, because refusing a panic is the worst possible outcome. Every other
/// missing field is a refusal, as docs/CONTRACT.md requires.
public struct Action: Codable, Hashable, Sendable {
    /// Unique per action, for idempotency.
    public var id: String
    public var kind: Kind

    /// What the walker asked for.
    public enum Kind: Hashable, Sendable {
        case start
        case stop
        case imSafe
        case needHelp
        case panic(EscalationLevel)
        /// `minutes` is > 0 and at most ``Action/maxWalkMinutes`` (fractions allowed).
        case startWalk(destination: String, minutes: Double)
        case arrived

        /// The wire word.
        public var name: String {
            switch self {
            case .start: "start"
            case .stop: "stop"
            case .imSafe: "imSafe"
            case .needHelp: "needHelp"
            case .panic: "panic"
            case .startWalk: "startWalk"
            case .arrived: "arrived"
            }
        }
    }

    public init(id: String, kind: Kind) {
        self.id = id
        self.kind = kind
    }

    /// The walk a `startWalk` begins when received at `now`; nil for other actions.
    public func walk(startingAt now: EpochSeconds) -> WalkPlan? {
        guard case .startWalk(let destination, let minutes) = kind else { return nil }
        return WalkPlan(destination: destination, eta: now + minutes * 60)
    }

    /// The longest walk accepted: a day. Without a bound, `"minutes": 1e308` made an infinite ETA
    /// that no status or escalation could encode, so the watchdog dropped them all for that
    /// walker, a panic included (found by the hostile-input corpus).
    public static let maxWalkMinutes: Double = 24 * 60

    private enum CodingKeys: String, CodingKey { case v, action, id, level, destination, minutes }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        _ = try c.decode(SchemaVersion.self, forKey: .v)
        id = try c.decode(String.self, forKey: .id)
        guard !id.isEmpty else {
            throw DecodingError.dataCorruptedError(forKey: .id, in: c, debugDescription: "empty action id")
        }
        switch try c.decode(String.self, forKey: .action) {
        case "start": kind = .start
        case "stop": kind = .stop
        case "imSafe": kind = .imSafe
        case "needHelp": kind = .needHelp
        case "arrived": kind = .arrived
        case "panic":
            let word = try? c.decodeIfPresent(String.self, forKey: .level)
            kind = .panic(word.flatMap(EscalationLevel.init(rawValue:)) ?? .red)
        case "startWalk":
            let destination = try c.decode(String.self, forKey: .destination)
            let minutes = try c.decode(Double.self, forKey: .minutes)
            guard minutes.isFinite, minutes > 0, minutes <= Self.maxWalkMinutes else {
                throw DecodingError.dataCorruptedError(
                    forKey: .minutes, in: c, debugDescription: "walk minutes must be > 0 and <= \(Self.maxWalkMinutes)")
            }
            kind = .startWalk(destination: destination, minutes: minutes)
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .action, in: c, debugDescription: "unknown action \(other)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(SchemaVersion(), forKey: .v)
        try c.encode(kind.name, forKey: .action)
        try c.encode(id, forKey: .id)
        switch kind {
        case .panic(let level):
            try c.encode(level, forKey: .level)
        case .startWalk(let destination, let minutes):
            try c.encode(destination, forKey: .destination)
            try c.encode(minutes, forKey: .minutes)
        case .start, .stop, .imSafe, .needHelp, .arrived:
            break
        }
    }
}
