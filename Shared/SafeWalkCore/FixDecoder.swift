import Foundation

/// What a payload on a fix topic turned out to be.
public enum FixOutcome: Hashable, Sendable {
    /// A location, decoded and validated.
    case fix(LocationFix)
    /// A well-formed OwnTracks message of another `_type` (`lwt`, `transition`, `card`,
    /// `waypoint`, `status`, `encrypted`, ...): not an error, just not a position.
    case ignored(type: String)
}

/// Reads fixes from `{w}/fix` and `owntracks/{user}/{device}` payloads.
///
/// Accepted shapes: our own `{"v":1,"lat":…,"lon":…,"tst":…}` and OwnTracks
/// `{"_type":"location",…}` with or without `v` (if `v` is present it must be 1).
///
/// Number policy: `lat`, `lon`, `tst` are required JSON numbers, integer or fractional.
/// Numbers written as strings are refused (`wrong_type`), since the OwnTracks format
/// specifies numbers. Optional fields that are absent stay `nil`: in particular an absent
/// `acc` means *unknown accuracy*, never 0 m, so it can never prove movement. Absent
/// `alt`/`vel` (OwnTracks may omit them when zero) are only telemetry and stay `nil`.
public enum FixDecoder {
    /// Decodes and validates a fix payload as seen at `now`.
    public static func decode(
        _ data: Data, now: EpochSeconds, policy: FixPolicy = FixPolicy()
    ) throws(FixRejection) -> FixOutcome {
        let outcome = try parse(data, maxBytes: policy.maxBytes)
        if case .fix(let fix) = outcome {
            try FixValidator.validate(fix, now: now, policy: policy)
        }
        return outcome
    }

    /// Decodes the shape of a fix payload without checking its values against a clock.
    public static func parse(_ data: Data, maxBytes: Int = FixPolicy().maxBytes) throws(FixRejection) -> FixOutcome {
        do {
            try PayloadError.checkSize(data, maxBytes: maxBytes)
        } catch {
            throw FixRejection(error)
        }
        let envelope: Envelope = try decodeMapped(Envelope.self, data)
        switch envelope.type {
        case .some("location"):
            if let version = envelope.v, version != SchemaVersion.current { throw .unsupportedVersion }
        case .some(let other):
            return .ignored(type: other)
        case .none:
            guard let version = envelope.v else { throw .missingVersion }
            if version != SchemaVersion.current { throw .unsupportedVersion }
        }
        let fields: Fields = try decodeMapped(Fields.self, data)
        return .fix(
            LocationFix(
                lat: fields.lat, lon: fields.lon, tst: fields.tst, acc: fields.acc,
                alt: fields.alt, vel: fields.vel, batt: fields.batt))
    }

    private static func decodeMapped<T: Decodable>(_ type: T.Type, _ data: Data) throws(FixRejection) -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw FixRejection(PayloadError(decoding: error))
        }
    }

    private struct Envelope: Decodable {
        let type: String?
        let v: Int?
        enum CodingKeys: String, CodingKey {
            case type = "_type"
            case v
        }
    }

    private struct Fields: Decodable {
        let lat: Double
        let lon: Double
        let tst: Double
        let acc: Double?
        let alt: Double?
        let vel: Double?
        let batt: Double?
    }
}
