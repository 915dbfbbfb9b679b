import Foundation

/// Reads OwnTracks' monitoring mode (`"m":2`) out of a payload without decoding it: every
/// OwnTracks message passes here, on the hot path, and the full decoder (``FixDecoder``, shared,
/// which has no use for `m`) has already read the rest. A `"m"` followed by `:` can only be a key:
/// after a string value JSON allows only `,`, `}` or `]`, and `"m"` inside a string would be
/// escaped (`\"m\"`). OwnTracks messages have no nested objects, so the key is the top-level one.
enum MonitoringModeScanner {
    /// The integer after the first `"m":`, or nil (absent, not an integer, or implausibly long).
    static func mode(in payload: Data) -> Int? {
        payload.withUnsafeBytes { bytes -> Int? in
            let quote = UInt8(ascii: "\"")
            let m = UInt8(ascii: "m")
            let colon = UInt8(ascii: ":")
            let count = bytes.count
            var i = 0
            while i + 2 < count {
                guard bytes[i] == quote, bytes[i + 1] == m, bytes[i + 2] == quote else {
                    i += 1
                    continue
                }
                var j = skipSpace(bytes, from: i + 3)
                guard j < count, bytes[j] == colon else {
                    i += 3
                    continue
                }
                j = skipSpace(bytes, from: j + 1)
                return integer(bytes, from: j)
            }
            return nil
        }
    }

    private static func skipSpace(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var i = start
        while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
        return i
    }

    /// An optional `-` and one to three digits, ended by anything that is not part of a number.
    private static func integer(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        var i = start
        let negative = i < bytes.count && bytes[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        var value = 0
        var digits = 0
        while i < bytes.count, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") {
            value = value * 10 + Int(bytes[i] - UInt8(ascii: "0"))
            digits += 1
            i += 1
            if digits > 3 { return nil }
        }
        guard digits > 0 else { return nil }
        if i < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[i]) { return nil }
        return negative ? -value : value
    }
}
