import Foundation

/// Writes one JSON object straight into bytes, for the payloads written at every escalation
/// (the watchdog's ``EscalationEvent``, ``WatchStatus`` and ``IncidentState``) or with every fix
/// (location-ingest's ``PositionUpdate``). Foundation's `JSONEncoder` spent ~10 µs on each, the
/// largest share of the watchdog's CPU when 10,000 deadlines fall due per second.
///
/// The output is what ``SafeWalkJSON/encode(_:)`` writes, byte for byte where it matters to a
/// reader: sorted keys (callers write them in order), unescaped slashes, the same string
/// escapes, integral numbers without a fraction, and an error instead of a non-finite number.
/// Tests compare both for every case, and decode the result with the shared decoder.
public struct JSONObjectWriter {
    public struct NonFiniteNumber: Error { public let key: String }

    private var bytes: [UInt8] = [UInt8(ascii: "{")]
    private var empty = true

    public init() { bytes.reserveCapacity(320) }

    public mutating func string(_ key: StaticString, _ value: String) {
        self.key(key)
        Self.quote(value, into: &bytes)
    }

    public mutating func number(_ key: StaticString, _ value: Double) throws {
        guard value.isFinite else { throw NonFiniteNumber(key: key.description) }
        self.key(key)
        // Integral values as integers, as JSONEncoder writes them (exact below 2^53).
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
            bytes.append(contentsOf: String(Int64(value)).utf8)
        } else {
            bytes.append(contentsOf: value.description.utf8)
        }
    }

    public mutating func integer(_ key: StaticString, _ value: Int) {
        self.key(key)
        bytes.append(contentsOf: String(value).utf8)
    }

    public mutating func bool(_ key: StaticString, _ value: Bool) {
        self.key(key)
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    public mutating func null(_ key: StaticString) {
        self.key(key)
        bytes.append(contentsOf: "null".utf8)
    }

    public mutating func object(_ key: StaticString, _ body: (inout JSONObjectWriter) throws -> Void) rethrows {
        self.key(key)
        var nested = JSONObjectWriter()
        try body(&nested)
        bytes.append(contentsOf: nested.finishedBytes())
    }

    public func data() -> Data { Data(finishedBytes()) }

    private func finishedBytes() -> [UInt8] { bytes + [UInt8(ascii: "}")] }

    private mutating func key(_ name: StaticString) {
        if !empty { bytes.append(UInt8(ascii: ",")) }
        empty = false
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(contentsOf: "\":".utf8)
    }

    /// JSON string escapes as Foundation writes them: `\"`, `\\`, the short forms for
    /// backspace, form feed, newline, carriage return and tab, `\u00XX` for other control
    /// characters; everything else (slashes, non-ASCII) as its UTF-8 bytes.
    private static func quote(_ value: String, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): bytes.append(contentsOf: "\\\\".utf8)
            case 0x08: bytes.append(contentsOf: "\\b".utf8)
            case 0x0C: bytes.append(contentsOf: "\\f".utf8)
            case 0x0A: bytes.append(contentsOf: "\\n".utf8)
            case 0x0D: bytes.append(contentsOf: "\\r".utf8)
            case 0x09: bytes.append(contentsOf: "\\t".utf8)
            case 0x00..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: "\\u00".utf8)
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
