import Crypto
import Foundation
import SafeWalkCore
import SafeWalkService

/// A web session's own broker login (docs/services/web.md, "The walker's app API"): the name
/// `{w}.app-{session}` and a password that only the holder of the session's cookie can derive.
/// Nothing of it is stored but the `session` id, which names the login so it can be revoked.
public struct SessionLogin: Hashable, Sendable {
    public var user: WalkerID
    /// 16 lowercase hex digits: the first 16 of SHA-256 of the cookie token's stored digest.
    public var session: String

    public init(user: WalkerID, session: String) {
        self.user = user
        self.session = session
    }

    /// The login of the session whose cookie token has `tokenHash` (``Secrets/digest(_:)``).
    public init(user: WalkerID, tokenHash: String) {
        self.init(user: user, session: Self.sessionID(tokenHash: tokenHash))
    }

    /// `{w}.app-{session}`.
    public var username: String { AccountCommand.sessionUsername(for: user, session: session) }

    public static func sessionID(tokenHash: String) -> String {
        String(TokenText.sha256Hex(tokenHash).prefix(16))
    }

    /// The login's password: HKDF-SHA256 over the cookie's token (info "safewalk broker session
    /// login", no salt: the token is 256 random bits), 32 bytes, base64url (43 characters). The
    /// database holds only the token's SHA-256, from which this cannot be computed.
    public static func password(token: String) -> String {
        let key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: Data(token.utf8)),
            info: Data("safewalk broker session login".utf8), outputByteCount: 32)
        return key.withUnsafeBytes { TokenText.base64URL($0) }
    }
}
