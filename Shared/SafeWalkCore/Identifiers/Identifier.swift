/// What kind of name an ``Identifier`` holds: its label for errors and the names it reserves.
public protocol IdentifierKind: Sendable {
    /// A human label used in error messages, e.g. "walker id".
    static var label: String { get }
    /// Names that match the character rule but are still refused (they would collide with
    /// a system topic level).
    static var reserved: Set<String> { get }
}

/// A name that is safe to put in one MQTT topic level: `[A-Za-z0-9_-]{1,64}`, ASCII only.
///
/// Validation happens on every way in (``init(_:)`` and `Decodable`), so a value of this
/// type can never smuggle `/`, `+`, `#` or an empty level into a topic.
public struct Identifier<Kind: IdentifierKind>: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The longest accepted name, in characters (all ASCII, so also bytes).
    public static var maxLength: Int { 64 }

    /// The validated name.
    public let rawValue: String

    /// Validates `rawValue`, throwing the first reason it is unacceptable.
    public init(_ rawValue: String) throws(IdentifierError) {
        try Self.validate(rawValue)
        self.rawValue = rawValue
    }

    /// Validates `rawValue`, returning nil instead of throwing.
    public init?(validating rawValue: String) {
        guard (try? Self.validate(rawValue)) != nil else { return nil }
        self.rawValue = rawValue
    }

    /// Only for compile-time constants this file's module knows to be valid.
    init(trusted rawValue: String) {
        self.rawValue = rawValue
    }

    /// Throws why `raw` is not an acceptable name; returns normally when it is.
    public static func validate(_ raw: String) throws(IdentifierError) {
        if raw.isEmpty { throw .empty }
        // Check characters before length so a long unicode string reports the real problem.
        // Every topic a service reads names a walker, so the usual id (all allowed ASCII) is
        // checked in one pass over its bytes; only a bad one is walked by scalar, to name the
        // first bad character.
        if !allBytesAllowed(raw) {
            for scalar in raw.unicodeScalars where !isAllowed(scalar) {
                throw .invalidCharacter(scalar)
            }
        }
        if raw.utf8.count > maxLength { throw .tooLong(length: raw.utf8.count) }
        // Every reserved name begins with `_` (IdentifierTests holds the sets to it), so the
        // usual id is not hashed into the set at all.
        if raw.utf8.first == UInt8(ascii: "_"), Kind.reserved.contains(raw) { throw .reserved(raw) }
    }

    /// ``isAllowed(_:)`` for every byte: every allowed character is ASCII, so a byte that is not
    /// (part of a multi-byte character) is refused as its Latin-1 scalar is.
    private static func allBytesAllowed(_ raw: String) -> Bool {
        for byte in raw.utf8 where !isAllowed(Unicode.Scalar(byte)) { return false }
        return true
    }

    private static func isAllowed(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true  // 0-9 A-Z a-z
        case 0x2D, 0x5F: true  // - _
        default: false
        }
    }

    public var description: String { rawValue }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension Identifier: Codable {
    /// Decoding validates: an invalid name fails as `dataCorrupted` at its key.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let raw = try container.decode(String.self)
        do {
            try self.init(raw)
        } catch {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "invalid \(Kind.label): \(error)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// Why a string is not an acceptable ``Identifier``.
public enum IdentifierError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The empty string.
    case empty
    /// Longer than 64 characters (`length` is the UTF-8 byte count).
    case tooLong(length: Int)
    /// A character outside `[A-Za-z0-9_-]`: the first one found.
    case invalidCharacter(Unicode.Scalar)
    /// A name the system keeps for itself.
    case reserved(String)

    public var description: String {
        switch self {
        case .empty: "empty"
        case .tooLong(let length): "too long (\(length) > 64)"
        case .invalidCharacter(let scalar): "invalid character U+\(String(scalar.value, radix: 16, uppercase: true))"
        case .reserved(let name): "reserved name \(name)"
        }
    }
}
