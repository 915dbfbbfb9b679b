import Foundation

/// The JSON settings every service uses, so payloads look the same whoever writes them.
public enum SafeWalkJSON {
    /// The largest payload ``decode(_:from:maxBytes:)`` accepts unless told otherwise.
    public static let defaultMaxBytes = 64 * 1024

    /// A new encoder: sorted keys (stable output for tests and diffs), unescaped slashes
    /// (readable URLs). Non-finite numbers are an encoding error, never `NaN` on the wire.
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// A new decoder with Foundation's defaults (unknown keys ignored).
    public static func decoder() -> JSONDecoder {
        JSONDecoder()
    }

    /// One encoder and one decoder for every payload: they keep no state between calls, and
    /// making one per message is measurable on the hot paths (ingest, watchdog).
    static let sharedEncoder = encoder()
    static let sharedDecoder = decoder()

    /// Encodes a payload with the settings of ``encoder()``.
    public static func encode<T: Encodable>(_ value: T) throws -> Data {
        try sharedEncoder.encode(value)
    }

    /// Decodes a payload after checking its size, mapping every failure to a ``PayloadError``.
    public static func decode<T: Decodable>(
        _ type: T.Type, from data: Data, maxBytes: Int = defaultMaxBytes
    ) throws(PayloadError) -> T {
        try PayloadError.checkSize(data, maxBytes: maxBytes)
        do {
            return try sharedDecoder.decode(type, from: data)
        } catch {
            throw PayloadError(decoding: error)
        }
    }
}
