/// Why ingest refused a fix, with a stable ``code`` for logs and metrics.
public enum FixRejection: Error, Hashable, Sendable, CustomStringConvertible {
    case tooLarge(bytes: Int, limit: Int)
    /// Not JSON, or not a JSON object.
    case malformed
    /// Neither `"v"` nor `"_type": "location"`.
    case missingVersion
    case unsupportedVersion
    case missingField(String)
    /// e.g. `"lat": "30.28"`: numbers must be JSON numbers (ints or floats).
    case wrongType(String)
    case invalidValue(String)
    /// NaN or ±infinity (only possible for fixes built in code; JSON cannot carry them).
    case nonFinite(String)
    case latitudeOutOfRange
    case longitudeOutOfRange
    /// Negative accuracy.
    case invalidAccuracy
    /// `tst` further in the past than the policy allows.
    case tooOld
    /// `tst` further in the future than the policy allows.
    case inFuture

    /// A stable snake_case code.
    public var code: String {
        switch self {
        case .tooLarge: "too_large"
        case .malformed: "malformed"
        case .missingVersion: "missing_version"
        case .unsupportedVersion: "unsupported_version"
        case .missingField: "missing_field"
        case .wrongType: "wrong_type"
        case .invalidValue: "invalid_value"
        case .nonFinite: "non_finite"
        case .latitudeOutOfRange: "latitude_out_of_range"
        case .longitudeOutOfRange: "longitude_out_of_range"
        case .invalidAccuracy: "invalid_accuracy"
        case .tooOld: "too_old"
        case .inFuture: "in_future"
        }
    }

    public var description: String {
        switch self {
        case .missingField(let f), .wrongType(let f), .invalidValue(let f), .nonFinite(let f): "\(code) (\(f))"
        default: code
        }
    }

    /// The fix-level reading of a payload error.
    public init(_ error: PayloadError) {
        switch error {
        case .tooLarge(let bytes, let limit): self = .tooLarge(bytes: bytes, limit: limit)
        case .malformed: self = .malformed
        case .missingVersion: self = .missingVersion
        case .unsupportedVersion: self = .unsupportedVersion
        case .missingField(let f): self = .missingField(f)
        case .wrongType(let f): self = .wrongType(f)
        case .invalidValue(let f): self = .invalidValue(f)
        }
    }
}
