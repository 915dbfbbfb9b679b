import Foundation

/// A contact's live page token (docs/CONTRACT.md, `_ladder/{w}`): 128 random bits from the system's
/// cryptographic generator, base64url without padding (22 characters), so a link cannot be
/// guessed. The notifier mints one per recipient of an incident, puts it in the text or webhook
/// that tells them, and publishes only its ``digest(_:)``; `web` finds a page by the digest of the
/// token in the URL, so neither the broker nor `web`'s store ever holds a working link.
public enum PageToken {
    /// 16 bytes: the 128 bits the contract asks for.
    public static let byteCount = 16
    /// The length of a minted token: base64url of 16 bytes without padding.
    public static let length = 22

    /// A new token.
    public static func mint() -> String { TokenText.base64URL(TokenText.randomBytes(byteCount)) }

    /// Whether `text` could be a minted token: exactly 22 base64url characters. Checked before
    /// anything else is done with a URL's token.
    public static func isWellFormed(_ text: some StringProtocol) -> Bool {
        text.utf8.count == length
            && text.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5a).contains(byte) || (0x61...0x7a).contains(byte)
                    || byte == 0x2d || byte == 0x5f
            }
    }

    /// The lowercase hex SHA-256 of the token's UTF-8 bytes: what `_ladder/{w}` and `_acks/request`
    /// carry instead of the token.
    public static func digest(_ token: some StringProtocol) -> String { TokenText.sha256Hex(token) }
}
