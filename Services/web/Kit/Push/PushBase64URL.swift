import Foundation
import SafeWalkService

/// base64url (RFC 4648 §5), as Web Push writes keys: browsers give `p256dh` and `auth` without
/// padding (`PushSubscription.toJSON()`), some libraries with it; both are read.
public enum PushBase64URL {
    public static func encode(_ bytes: some Sequence<UInt8>) -> String { TokenText.base64URL(bytes) }

    /// Nil for anything but the base64url alphabet (standard base64's `+` and `/` included: a key
    /// from a browser never has them, so they mean the input is not one).
    public static func decode(_ text: String) -> Data? {
        var body = Substring(text)
        while body.hasSuffix("=") { body = body.dropLast() }
        guard body.count % 4 != 1,
            body.utf8.allSatisfy({ byte in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: "_")
            })
        else { return nil }
        var standard = body.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        return Data(base64Encoded: standard)
    }
}
