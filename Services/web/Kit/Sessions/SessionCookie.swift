import Foundation
import Hummingbird

/// The `safewalk_session` cookie: HttpOnly (no script can read it), Secure (sent only over HTTPS,
/// or to localhost, which browsers treat as secure), SameSite=Strict (never sent by a request
/// another site started), Path=/.
public enum SessionCookie {
    public static let name = "safewalk_session"

    public static func issue(_ token: String, maxAge: Int) -> Cookie {
        Cookie(
            name: name, value: token, maxAge: maxAge, path: "/", secure: true, httpOnly: true,
            sameSite: .strict)
    }

    /// Tells the browser to forget the cookie.
    public static func expired() -> Cookie {
        Cookie(name: name, value: "", maxAge: 0, path: "/", secure: true, httpOnly: true, sameSite: .strict)
    }

    /// The token a request carries, if it looks like one of ours (43 base64url characters).
    public static func token(in request: Request) -> String? {
        guard let value = request.cookies[name]?.value, value.utf8.count == 43, value.utf8.allSatisfy(isBase64URL)
        else { return nil }
        return value
    }

    private static func isBase64URL(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }
}
