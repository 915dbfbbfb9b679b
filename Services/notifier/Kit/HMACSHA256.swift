import Crypto
import SafeWalkService

/// HMAC-SHA256 (RFC 2104) of webhook bodies, computed by swift-crypto: cryptography is never
/// written by hand here. Checked against RFC 4231's test cases in `HMACSHA256Tests`.
/// Constant-time comparison is the receiver's job.
public enum HMACSHA256 {
    /// HMAC-SHA256 of `message` under `key`: 32 bytes.
    public static func authenticate(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key)))
    }

    /// Lowercase hex, as webhook signature headers carry it.
    public static func hex(_ bytes: [UInt8]) -> String { TokenText.hex(bytes) }
}
