import Foundation

/// What a payload on a fix topic turned out to be.
public enum FixOutcome: Hashable, Sendable {
    /// A location, decoded and validated.
    case fix(LocationFix)
    /// The OwnTracks app's Last Will (`{"_type":"lwt","tst":…}`), which the broker publishes when
    /// the app's connection dies. `connectedAt` is the app's `tst`: when that connection began,
    /// so the same will delivered twice (retained, after a restart) is recognisable. Read
    /// leniently: a will whose `tst` is missing or not a number still says the device is gone.
    case lastWill(connectedAt: EpochSeconds?)
    /// A well-formed OwnTracks message of another `_type` (`transition`, `card`, `waypoint`,
    /// `status`, `encrypted`, ...): not an error, just not a position.
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
        if let fix = data.withUnsafeBytes(FlatFixScanner.scan) { return .fix(fix) }
        return try parseWithFoundation(data)
    }

    /// The full decoder: the rules and error codes for every payload, including all that
    /// ``FlatFixScanner`` declines.
    static func parseWithFoundation(_ data: Data) throws(FixRejection) -> FixOutcome {
        // One pass over the bytes: parsing twice (envelope, then fields) cost ~40 % more in
        // the ingest benchmark.
        switch try decodeMapped(Payload.self, data).shape {
        case .ignored(let type): return .ignored(type: type)
        case .lastWill(let connectedAt): return .lastWill(connectedAt: connectedAt)
        case .fix(let fix): return .fix(fix)
        }
    }

    private static func decodeMapped<T: Decodable>(_ type: T.Type, _ data: Data) throws(FixRejection) -> T {
        do {
            return try SafeWalkJSON.sharedDecoder.decode(type, from: data)
        } catch let version as VersionProblem {
            throw version == .missing ? .missingVersion : .unsupportedVersion
        } catch {
            throw FixRejection(PayloadError(decoding: error))
        }
    }

    private enum VersionProblem: Error { case missing, unsupported }

    /// The envelope (`_type`, `v`) is read first and decides whether the fields are required.
    private struct Payload: Decodable {
        enum Shape {
            case ignored(String)
            case lastWill(EpochSeconds?)
            case fix(LocationFix)
        }
        let shape: Shape

        enum CodingKeys: String, CodingKey {
            case type = "_type"
            case v, lat, lon, tst, acc, alt, vel, batt
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let type = try c.decodeIfPresent(String.self, forKey: .type)
            if type == "lwt" {
                // Before anything else is read: a device that is gone must not be missed because
                // the rest of its will is odd.
                shape = .lastWill((try? c.decodeIfPresent(Double.self, forKey: .tst)) ?? nil)
                return
            }
            let version = try c.decodeIfPresent(Int.self, forKey: .v)
            switch type {
            case .some("location"):
                if let version, version != SchemaVersion.current { throw VersionProblem.unsupported }
            case .some(let other):
                shape = .ignored(other)
                return
            case .none:
                guard let version else { throw VersionProblem.missing }
                if version != SchemaVersion.current { throw VersionProblem.unsupported }
            }
            shape = .fix(
                LocationFix(
                    lat: try c.decode(Double.self, forKey: .lat), lon: try c.decode(Double.self, forKey: .lon),
                    tst: try c.decode(Double.self, forKey: .tst), acc: try c.decodeIfPresent(Double.self, forKey: .acc),
                    alt: try c.decodeIfPresent(Double.self, forKey: .alt),
                    vel: try c.decodeIfPresent(Double.self, forKey: .vel),
                    batt: try c.decodeIfPresent(Double.self, forKey: .batt)))
        }
    }
}
