/// Seconds since 1970-01-01 UTC, possibly fractional. Every time in SafeWalk payloads and
/// decisions uses this, and nothing in this module reads a clock: "now" is always a parameter.
public typealias EpochSeconds = Double

/// The `"v": 1` every SafeWalk JSON payload carries.
///
/// Payload structs hold one as a stored property named `v`, so the synthesised `Codable`
/// writes `1`, fails with `keyNotFound` when `v` is missing, and fails with `dataCorrupted`
/// when it is anything but the integer 1.
public struct SchemaVersion: Codable, Hashable, Sendable {
    /// The only version this code speaks.
    public static let current = 1

    public init() {}

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let value = try container.decode(Int.self)
        guard value == Self.current else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "unsupported payload version \(value)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Self.current)
    }
}
