import Crypto
import Foundation

/// How random tokens and digests are written as text, in one place: web's session cookies and
/// device passwords, contacts' page tokens and their buttons' keys, the notifier's receipt
/// references and webhook signatures.
public enum TokenText {
    /// `count` bytes from the system's cryptographic generator.
    public static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// base64url without padding (RFC 4648 §5): valid in a cookie, a header and a URL path.
    public static func base64URL(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Lowercase hex, two digits a byte.
    public static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef")
        var out = ""
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return out
    }

    /// The lowercase hex SHA-256 of the text's UTF-8 bytes.
    public static func sha256Hex(_ text: some StringProtocol) -> String {
        hex(SHA256.hash(data: Data(text.utf8)))
    }
}
