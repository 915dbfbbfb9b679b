import Crypto
import Foundation

/// Twilio's `X-Twilio-Signature` on the webhooks it sends (inbound SMS, status callbacks): the
/// base64 HMAC-SHA1, keyed by the account's auth token, of the full URL Twilio called followed by
/// every POST parameter's name and value, names in order and, for a repeated name, its distinct
/// values in order (what Twilio's own libraries check, and its published vectors prove). Anyone
/// can post to a public webhook; only Twilio knows the token.
public enum TwilioSignature {
    /// The signature Twilio would send for `parameters` posted to `url`.
    public static func expected(authToken: String, url: String, parameters: [(name: String, value: String)]) -> String {
        Data(code(authToken: authToken, url: url, parameters: parameters)).base64EncodedString()
    }

    /// Whether `signature` is Twilio's for this request, compared in constant time.
    public static func isValid(
        _ signature: String, authToken: String, url: String, parameters: [(name: String, value: String)]
    ) -> Bool {
        guard let sent = Data(base64Encoded: signature) else { return false }
        return HMAC<Insecure.SHA1>.isValidAuthenticationCode(
            sent, authenticating: Data(signedText(url: url, parameters: parameters).utf8),
            using: SymmetricKey(data: Data(authToken.utf8)))
    }

    private static func code(authToken: String, url: String, parameters: [(name: String, value: String)]) -> [UInt8] {
        Array(
            HMAC<Insecure.SHA1>.authenticationCode(
                for: Data(signedText(url: url, parameters: parameters).utf8),
                using: SymmetricKey(data: Data(authToken.utf8))))
    }

    /// The URL, then `name value` for each distinct pair, sorted by name then value in byte order.
    static func signedText(url: String, parameters: [(name: String, value: String)]) -> String {
        let pairs = Set(parameters.map { Pair(name: $0.name, value: $0.value) }).sorted()
        return url + pairs.map { $0.name + $0.value }.joined()
    }

    private struct Pair: Hashable, Comparable {
        let name: String
        let value: String

        static func < (lhs: Pair, rhs: Pair) -> Bool {
            if lhs.name != rhs.name { return lhs.name.utf8.lexicographicallyPrecedes(rhs.name.utf8) }
            return lhs.value.utf8.lexicographicallyPrecedes(rhs.value.utf8)
        }
    }
}
