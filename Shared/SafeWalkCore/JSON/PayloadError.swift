import Foundation

/// Why a payload was refused, with a stable ``code`` for logs, metrics and ``Rejection``.
public enum PayloadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Larger than the limit in force.
    case tooLarge(bytes: Int, limit: Int)
    /// Not JSON, or not a JSON object.
    case malformed
    /// No top-level `"v"`.
    case missingVersion
    /// A top-level `"v"` other than the integer 1.
    case unsupportedVersion
    /// A required field is absent or null (dotted path, e.g. `lastFix.lat`).
    case missingField(String)
    /// A field has the wrong JSON type, e.g. a string where a number belongs.
    case wrongType(String)
    /// A field has the right type but an unacceptable value (unknown enum word, bad id, ...).
    case invalidValue(String)

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
        }
    }

    public var description: String {
        switch self {
        case .tooLarge(let bytes, let limit): "too_large (\(bytes) > \(limit) bytes)"
        case .missingField(let f), .wrongType(let f), .invalidValue(let f): "\(code) (\(f))"
        default: code
        }
    }

    /// Throws ``tooLarge(bytes:limit:)`` when `data` is over `maxBytes`.
    public static func checkSize(_ data: Data, maxBytes: Int) throws(PayloadError) {
        if data.count > maxBytes { throw .tooLarge(bytes: data.count, limit: maxBytes) }
    }

    /// Classifies any error thrown by `JSONDecoder`.
    public init(decoding error: any Error) {
        guard let error = error as? DecodingError else {
            self = .malformed
            return
        }
        switch error {
        case .keyNotFound(let key, let context):
            let path = context.codingPath + [key]
            self = Self.isVersion(path) ? .missingVersion : .missingField(Self.render(path))
        case .valueNotFound(_, let context):
            let path = context.codingPath
            if path.isEmpty {
                self = .malformed  // the whole document is `null`
            } else {
                self = Self.isVersion(path) ? .missingVersion : .missingField(Self.render(path))
            }
        case .typeMismatch(_, let context):
            self = Self.classify(context.codingPath, otherwise: PayloadError.wrongType)
        case .dataCorrupted(let context):
            self = Self.classify(context.codingPath, otherwise: PayloadError.invalidValue)
        @unknown default:
            self = .malformed
        }
    }

    private static func classify(_ path: [any CodingKey], otherwise: (String) -> PayloadError) -> PayloadError {
        if path.isEmpty { return .malformed }  // the document itself: not JSON or not an object
        if isVersion(path) { return .unsupportedVersion }
        return otherwise(render(path))
    }

    private static func isVersion(_ path: [any CodingKey]) -> Bool {
        path.count == 1 && path[0].stringValue == "v"
    }

    private static func render(_ path: [any CodingKey]) -> String {
        path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }
}
