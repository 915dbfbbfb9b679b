/// `other`'s live state for w, retained on `{w}/shared/{other}` while w may see it (w is an SOS
/// contact of `other`, whose incident is open); cleared with an empty retained message when that
/// ends (docs/CONTRACT.md, "The circle").
public struct SharedView: Codable, Hashable, Sendable {
    var v = SchemaVersion()
    public var user: WalkerID
    public var incident: Incident
    /// The last position the circle owner has; nil until the first one.
    public var position: SharedPosition?
    public var updatedAt: EpochSeconds

    public init(user: WalkerID, incident: Incident, position: SharedPosition?, updatedAt: EpochSeconds) {
        self.user = user
        self.incident = incident
        self.position = position
        self.updatedAt = updatedAt
    }

    public struct Incident: Codable, Hashable, Sendable {
        public var id: String
        public var level: EscalationLevel
        public var reason: EscalationReason
        /// The walker gave the duress PIN: their phone shows a cancel, so do not call or text it.
        public var duress: Bool
        public var openedAt: EpochSeconds
        /// Who said "I'm on it" first, if anyone has.
        public var acknowledgedBy: String?

        public init(
            id: String, level: EscalationLevel, reason: EscalationReason, duress: Bool, openedAt: EpochSeconds,
            acknowledgedBy: String? = nil
        ) {
            self.id = id
            self.level = level
            self.reason = reason
            self.duress = duress
            self.openedAt = openedAt
            self.acknowledgedBy = acknowledgedBy
        }
    }
}

/// A position as the circle shows it: where, how sure, when, and the phone's battery.
public struct SharedPosition: Codable, Hashable, Sendable {
    public var lat: Double
    public var lon: Double
    public var acc: Double?
    public var tst: EpochSeconds
    public var batt: Double?

    public init(lat: Double, lon: Double, acc: Double?, tst: EpochSeconds, batt: Double? = nil) {
        self.lat = lat
        self.lon = lon
        self.acc = acc
        self.tst = tst
        self.batt = batt
    }

    public init(_ fix: LocationFix) {
        self.init(lat: fix.lat, lon: fix.lon, acc: fix.acc, tst: fix.tst, batt: fix.batt)
    }
}
