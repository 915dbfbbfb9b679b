/// A command from the device on `{w}/action`, e.g.
/// `{"v":1,"action":"startWalk","id":"a1","destination":"Library","minutes":12}`.
///
/// This is the strict reading. The watchdog first asks ``CryForHelp`` whether a message calls
/// for help (needHelp, panic, hold, release), which reads those generously; everything else
/// must decode here. Even here a `panic` whose `level` is missing or unrecognised is `red` and a
/// bad `note` is dropped, because refusing a panic is the worst possible outcome.
public struct Action: Codable, Hashable, Sendable {
    /// Unique per action, for idempotency. Empty only for a cry for help that came without one.
    public var id: String
    public var kind: Kind
    /// A short preset message with a cry for help (needHelp, panic, hold), at most
    /// ``CryForHelp/maxNoteLength`` characters.
    public var note: String?
    /// The PIN typed to end an incident (`imSafe`, `stop`, `arrived`) or to change the PINs.
    public var pin: PIN?
    /// Where a `startWalk` is going (`"to": {"lat", "lon"}`), so the watchdog can see the walker
    /// arrive and notice when they stop getting closer. Read only with `startWalk`.
    public var to: Coordinate?
    /// With `startWalk` and `to`: an ETA reached while the walker is still getting closer asks
    /// "need more time?" before `walkOverdue` (docs/CONTRACT.md, "Walks that know where they are
    /// going"). Read only with `startWalk`; absent is false.
    public var extendWhileProgressing: Bool
    /// With `start` or `startWalk`: whether the watch follows the walker's location. `false` turns
    /// `noMovement` and a walk's progress rules off (check-ins and the ETA still apply); absent is
    /// nil: on for a new watch, unchanged for one already running. Read only with those two.
    public var location: Bool?

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
        /// The finger is down on the hold-to-release button: arm the server-held switch.
        case hold(EscalationLevel)
        /// Heartbeat while the finger stays down.
        case holding
        /// The finger came off: panic at the held level.
        case release
        /// The finger slid off the button: disarm silently.
        case cancelHold
        /// Sets the cancel PIN and optionally a duress PIN (`pin` = the current cancel PIN).
        case setPins(PINChange)
        /// Removes both PINs (`pin` = the current cancel PIN).
        case clearPins

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
            case .hold: "hold"
            case .holding: "holding"
            case .release: "release"
            case .cancelHold: "cancelHold"
            case .setPins: "setPins"
            case .clearPins: "clearPins"
            }
        }

        /// Whether this action ends an incident (and so needs the cancel PIN when one is set).
        public var endsIncident: Bool {
            switch self {
            case .stop, .imSafe, .arrived: true
            default: false
            }
        }
    }

    public init(
        id: String, kind: Kind, note: String? = nil, pin: PIN? = nil, to: Coordinate? = nil,
        extendWhileProgressing: Bool = false, location: Bool? = nil
    ) {
        self.id = id
        self.kind = kind
        self.note = note
        self.pin = pin
        self.to = to
        self.extendWhileProgressing = extendWhileProgressing
        self.location = location
    }

    /// The walk a `startWalk` begins when received at `now`; nil for other actions.
    public func walk(startingAt now: EpochSeconds) -> WalkPlan? {
        guard case .startWalk(let destination, let minutes) = kind else { return nil }
        return WalkPlan(destination: destination, eta: now + minutes * 60, to: to)
    }

    /// The longest walk accepted: a day. Without a bound, `"minutes": 1e308` made an infinite ETA
    /// that no status or escalation could encode, so the watchdog dropped them all for that
    /// walker, a panic included (found by the hostile-input corpus).
    public static let maxWalkMinutes: Double = 24 * 60

    private enum CodingKeys: String, CodingKey {
        case v, action, id, level, destination, minutes, note, pin, cancelPin, duressPin, to, extendWhileProgressing,
            location
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        _ = try c.decode(SchemaVersion.self, forKey: .v)
        id = try c.decode(String.self, forKey: .id)
        to = nil
        extendWhileProgressing = false
        location = nil
        guard !id.isEmpty else {
            throw DecodingError.dataCorruptedError(forKey: .id, in: c, debugDescription: "empty action id")
        }
        note = CryForHelp.usableNote(try? c.decodeIfPresent(String.self, forKey: .note))
        pin = try Self.decodePIN(c, .pin)
        func level() -> EscalationLevel {
            let word = try? c.decodeIfPresent(String.self, forKey: .level)
            return word.flatMap(EscalationLevel.init(rawValue:)) ?? .red
        }
        switch try c.decode(String.self, forKey: .action) {
        case "start":
            kind = .start
            location = try c.decodeIfPresent(Bool.self, forKey: .location)
        case "stop": kind = .stop
        case "imSafe": kind = .imSafe
        case "needHelp": kind = .needHelp
        case "arrived": kind = .arrived
        case "panic": kind = .panic(level())
        case "hold": kind = .hold(level())
        case "holding": kind = .holding
        case "release": kind = .release
        case "cancelHold": kind = .cancelHold
        case "clearPins": kind = .clearPins
        case "setPins":
            guard let cancel = try Self.decodePIN(c, .cancelPin) else {
                throw DecodingError.keyNotFound(
                    CodingKeys.cancelPin, .init(codingPath: [], debugDescription: "cancelPin"))
            }
            let duress = try Self.decodePIN(c, .duressPin)
            guard duress != cancel else {
                throw DecodingError.dataCorruptedError(
                    forKey: .duressPin, in: c, debugDescription: "the duress PIN must differ from the cancel PIN")
            }
            kind = .setPins(PINChange(cancel: cancel, duress: duress))
        case "startWalk":
            let destination = try c.decode(String.self, forKey: .destination)
            let minutes = try c.decode(Double.self, forKey: .minutes)
            guard minutes.isFinite, minutes > 0, minutes <= Self.maxWalkMinutes else {
                throw DecodingError.dataCorruptedError(
                    forKey: .minutes, in: c, debugDescription: "walk minutes must be > 0 and <= \(Self.maxWalkMinutes)")
            }
            kind = .startWalk(destination: destination, minutes: minutes)
            to = try Self.decodeDestination(c)
            extendWhileProgressing = try c.decodeIfPresent(Bool.self, forKey: .extendWhileProgressing) ?? false
            location = try c.decodeIfPresent(Bool.self, forKey: .location)
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .action, in: c, debugDescription: "unknown action \(other)")
        }
    }

    /// `to`: absent is nil; present it must be `{"lat", "lon"}` on Earth. A walk whose destination
    /// is nowhere would never arrive and would always look stalled, so it is refused
    /// (`invalid_value (to)` on `{w}/rejected`) rather than started half-right.
    private static func decodeDestination(_ c: KeyedDecodingContainer<CodingKeys>) throws -> Coordinate? {
        guard let to = try c.decodeIfPresent(Coordinate.self, forKey: .to) else { return nil }
        guard to.isOnEarth else {
            throw DecodingError.dataCorruptedError(
                forKey: .to, in: c, debugDescription: "to must have lat in -90...90 and lon in -180...180")
        }
        return to
    }

    /// A PIN field: absent is nil; present it must be 4–12 digits.
    private static func decodePIN(_ c: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> PIN? {
        guard let text = try c.decodeIfPresent(String.self, forKey: key) else { return nil }
        guard let pin = PIN(text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "a PIN is 4 to 12 digits")
        }
        return pin
    }

    /// Writes the action as a device sends it, PINs included (the CLI and tests are devices).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(SchemaVersion(), forKey: .v)
        try c.encode(kind.name, forKey: .action)
        try c.encode(id, forKey: .id)
        try c.encodeIfPresent(note, forKey: .note)
        try c.encodeIfPresent(pin?.wire, forKey: .pin)
        switch kind {
        case .panic(let level), .hold(let level):
            try c.encode(level, forKey: .level)
        case .startWalk(let destination, let minutes):
            try c.encode(destination, forKey: .destination)
            try c.encode(minutes, forKey: .minutes)
            try c.encodeIfPresent(to, forKey: .to)
            if extendWhileProgressing { try c.encode(true, forKey: .extendWhileProgressing) }
            try c.encodeIfPresent(location, forKey: .location)
        case .start:
            try c.encodeIfPresent(location, forKey: .location)
        case .setPins(let change):
            try c.encode(change.cancel.wire, forKey: .cancelPin)
            try c.encodeIfPresent(change.duress?.wire, forKey: .duressPin)
        case .stop, .imSafe, .needHelp, .arrived, .holding, .release, .cancelHold, .clearPins:
            break
        }
    }
}

extension PIN {
    /// The digits as a device sends them; only for encoding an action (the CLI and tests are
    /// devices), never for a log line (``description`` is redacted).
    fileprivate var wire: String { String(decoding: digits, as: UTF8.self) }
}
