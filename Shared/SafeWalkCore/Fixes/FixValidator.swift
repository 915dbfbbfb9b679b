/// How strict ingest is about a fix's size and time.
public struct FixPolicy: Hashable, Sendable {
    /// Larger payloads are refused before parsing. OwnTracks locations are well under 1 KiB.
    public var maxBytes: Int
    /// How old `tst` may be. Stale fixes (e.g. a phone replaying its offline queue) must not
    /// count as current movement, so the default is short.
    public var maxAge: Double
    /// How far ahead of `now` `tst` may be, to absorb clock skew between phone and server.
    public var maxFutureSkew: Double

    public init(maxBytes: Int = 8 * 1024, maxAge: Double = 300, maxFutureSkew: Double = 60) {
        self.maxBytes = maxBytes
        self.maxAge = maxAge
        self.maxFutureSkew = maxFutureSkew
    }
}

/// Checks a fix's values. Boundaries are inclusive: a fix exactly `maxAge` old is accepted.
public enum FixValidator {
    /// Throws the first problem with `fix` as seen at `now`.
    public static func validate(
        _ fix: LocationFix, now: EpochSeconds, policy: FixPolicy = FixPolicy()
    ) throws(FixRejection) {
        // Field by field rather than through an array: this runs for every fix ingested.
        func check(_ value: Double?, _ name: String) throws(FixRejection) {
            if let value, !value.isFinite { throw .nonFinite(name) }
        }
        try check(fix.lat, "lat")
        try check(fix.lon, "lon")
        try check(fix.tst, "tst")
        try check(fix.acc, "acc")
        try check(fix.alt, "alt")
        try check(fix.vel, "vel")
        try check(fix.batt, "batt")
        guard (-90.0...90.0).contains(fix.lat) else { throw .latitudeOutOfRange }
        guard (-180.0...180.0).contains(fix.lon) else { throw .longitudeOutOfRange }
        if let acc = fix.acc, acc < 0 { throw .invalidAccuracy }
        if now - fix.tst > policy.maxAge { throw .tooOld }
        if fix.tst - now > policy.maxFutureSkew { throw .inFuture }
    }
}
