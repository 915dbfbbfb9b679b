import Foundation

/// The last accepted fix with the movement verdict (`{w}/position`, retained).
/// Encoded flat: the fix's own fields plus `moved` and `lastMovedAt`, so a position can
/// also be read as a fix.
public struct PositionUpdate: Codable, Hashable, Sendable {
    public var fix: LocationFix
    /// Whether this fix proved movement (location-ingest's movement rule).
    public var moved: Bool
    /// When movement was last proven (the first fix's time until then).
    public var lastMovedAt: EpochSeconds

    public init(fix: LocationFix, moved: Bool, lastMovedAt: EpochSeconds) {
        self.fix = fix
        self.moved = moved
        self.lastMovedAt = lastMovedAt
    }

    private enum CodingKeys: String, CodingKey { case moved, lastMovedAt }

    public init(from decoder: any Decoder) throws {
        fix = try LocationFix(from: decoder)  // also checks `v`
        let container = try decoder.container(keyedBy: CodingKeys.self)
        moved = try container.decode(Bool.self, forKey: .moved)
        lastMovedAt = try container.decode(EpochSeconds.self, forKey: .lastMovedAt)
    }

    /// Decodes a retained position: location-ingest's own encoding in one pass over its bytes
    /// (``FlatFixScanner``; the watchdog reads one per fix, and Foundation's decoder was a tenth of
    /// its CPU at walking pace), anything else by the full decoder, whose rules and errors stand.
    public static func decode(_ data: Data, maxBytes: Int = SafeWalkJSON.defaultMaxBytes) throws(PayloadError) -> Self {
        try PayloadError.checkSize(data, maxBytes: maxBytes)
        if let update = data.withUnsafeBytes(FlatFixScanner.scanPosition) { return update }
        return try SafeWalkJSON.decode(Self.self, from: data, maxBytes: maxBytes)
    }

    /// This update's payload, as ``SafeWalkJSON/encode(_:)`` writes it (sorted keys, optionals
    /// left out; see ``JSONObjectWriter`` for where the bytes may differ and a reader cannot
    /// tell), without Foundation's encoder: location-ingest writes one per fix, and `JSONEncoder`
    /// was most of its cost of publishing them (PositionScanTests compares the two).
    public func jsonPayload() throws -> Data {
        var w = JSONObjectWriter()
        if let acc = fix.acc { try w.number("acc", acc) }
        if let alt = fix.alt { try w.number("alt", alt) }
        if let batt = fix.batt { try w.number("batt", batt) }
        try w.number("lastMovedAt", lastMovedAt)
        try w.number("lat", fix.lat)
        try w.number("lon", fix.lon)
        w.bool("moved", moved)
        try w.number("tst", fix.tst)
        w.integer("v", SchemaVersion.current)
        if let vel = fix.vel { try w.number("vel", vel) }
        return w.data()
    }

    public func encode(to encoder: any Encoder) throws {
        try fix.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(moved, forKey: .moved)
        try container.encode(lastMovedAt, forKey: .lastMovedAt)
    }
}
