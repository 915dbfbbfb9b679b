import Crypto
import Foundation

/// A web app session's broker login as a test computes it from the session cookie alone
/// (docs/services/web.md, "The walker's app API"), independently of web's code: the name
/// `{w}.app-{first 16 hex of SHA-256(SHA-256 hex of the token)}`, the password HKDF-SHA256 of
/// the token (info "safewalk broker session login"), base64url.
public enum AppSessionLogin {
    /// `cookie` as a `Cookie` header carries it: `safewalk_session=<token>`.
    public static func token(fromCookie cookie: String) -> String {
        String(cookie.split(separator: "=", maxSplits: 1).last ?? "")
    }

    public static func username(_ user: String, token: String) -> String {
        let digest = hex(SHA256.hash(data: Data(token.utf8)))
        return "\(user).app-\(hex(SHA256.hash(data: Data(digest.utf8))).prefix(16))"
    }

    public static func password(token: String) -> String {
        let key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: Data(token.utf8)),
            info: Data("safewalk broker session login".utf8), outputByteCount: 32)
        return key.withUnsafeBytes { Data($0) }.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    private static func hex(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }
}
