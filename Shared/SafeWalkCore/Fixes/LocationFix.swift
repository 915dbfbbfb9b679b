/// One position report, in OwnTracks field names: the payload of `{w}/fix` in our own format
/// (`{"v":1,"lat":…,"lon":…,"tst":…,"acc":…}`) and the value ingest passes on.
///
/// `Codable` here checks shape only (and requires `"v": 1`); values are checked against a
/// clock by ``FixDecoder``/``FixValidator``, which is how services should read fixes.
public struct LocationFix: Codable, Hashable, Sendable {
    var v = SchemaVersion()
    /// Latitude in degrees, [-90, 90].
    public var lat: Double
    /// Longitude in degrees, [-180, 180].
    public var lon: Double
    /// When the device took the fix.
    public var tst: EpochSeconds
    /// Accuracy radius in metres. `nil` means unknown, which the movement rule treats as
    /// unboundedly poor, never as perfect.
    public var acc: Double?
    /// Altitude in metres (telemetry only).
    public var alt: Double?
    /// Speed in km/h as OwnTracks reports it (telemetry only).
    public var vel: Double?
    /// Battery percentage (telemetry only).
    public var batt: Double?

    public init(
        lat: Double, lon: Double, tst: EpochSeconds, acc: Double?,
        alt: Double? = nil, vel: Double? = nil, batt: Double? = nil
    ) {
        self.lat = lat
        self.lon = lon
        self.tst = tst
        self.acc = acc
        self.alt = alt
        self.vel = vel
        self.batt = batt
    }

    /// The position on its own.
    public var coordinate: Coordinate { Coordinate(lat: lat, lon: lon) }
}

/// The `{lat, lon, acc, tst}` of a fix as carried inside other payloads (escalation
/// `lastFix`). Unknown accuracy is written as `"acc": null`, never left out.
public struct FixSummary: Codable, Hashable, Sendable {
    public var lat: Double
    public var lon: Double
    public var acc: Double?
    public var tst: EpochSeconds

    public init(lat: Double, lon: Double, acc: Double?, tst: EpochSeconds) {
        self.lat = lat
        self.lon = lon
        self.acc = acc
        self.tst = tst
    }

    /// The summary of a full fix.
    public init(_ fix: LocationFix) {
        self.init(lat: fix.lat, lon: fix.lon, acc: fix.acc, tst: fix.tst)
    }

    private enum CodingKeys: String, CodingKey { case lat, lon, acc, tst }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(lat, forKey: .lat)
        try container.encode(lon, forKey: .lon)
        try container.encode(acc, forKey: .acc)
        try container.encode(tst, forKey: .tst)
    }

    /// The position on its own.
    public var coordinate: Coordinate { Coordinate(lat: lat, lon: lon) }
}
