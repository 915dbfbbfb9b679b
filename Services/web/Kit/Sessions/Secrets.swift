import Foundation
import SafeWalkService

/// Random tokens and their digests.
public enum Secrets {
    /// 32 random bytes (256 bits) from the system's generator, base64url without padding:
    /// 43 characters that are valid in a cookie, a header and a URL.
    public static func token(bytes: Int = 32) -> String { TokenText.base64URL(TokenText.randomBytes(bytes)) }

    /// A device password: 24 random bytes, 32 characters.
    public static func devicePassword() -> String { token(bytes: 24) }

    /// The SHA-256 of `token`, hex: what is stored for a session cookie.
    public static func digest(_ token: String) -> String { TokenText.sha256Hex(token) }

    /// Compares two secrets in time that depends only on their lengths.
    public static func equal(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}
