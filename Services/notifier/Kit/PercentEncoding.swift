/// Percent-encoding for URL components, done by hand so the result is identical on every
/// platform: only RFC 3986 unreserved characters (`A–Z a–z 0–9 - . _ ~`) stay literal;
/// every other byte of the UTF-8 encoding becomes `%XX` (uppercase hex). Emoji therefore
/// become their UTF-8 bytes, e.g. 👍 → `%F0%9F%91%8D`, and a space is `%20`, never `+`.
public enum PercentEncoding {
    /// Encodes `text` for use as a URL query value.
    public static func encode(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += "%" + hex(byte >> 4) + hex(byte & 0x0F)
            }
        }
        return result
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true  // 0-9 A-Z a-z
        case 0x2D, 0x2E, 0x5F, 0x7E: true  // - . _ ~
        default: false
        }
    }

    private static func hex(_ nibble: UInt8) -> String {
        String(nibble, radix: 16, uppercase: true)
    }
}
