import Crypto
import Foundation

/// Voluntary Application Server Identification (RFC 8292): web signs a short JWT (ES256) for each
/// push service it posts to, so the service can tie a subscription to this key and refuse anyone
/// else who learned the endpoint.
public struct VAPID: Sendable {
    public let key: P256.Signing.PrivateKey
    /// `sub`: how the push service's operator reaches whoever runs this server.
    public let subject: String
    /// How long a token is valid; RFC 8292 §2 caps `exp` at 24 hours from now.
    public let lifetime: TimeInterval

    public init(key: P256.Signing.PrivateKey, subject: String, lifetime: TimeInterval = 12 * 3600) {
        self.key = key
        self.subject = subject
        self.lifetime = min(lifetime, 24 * 3600)
    }

    /// The uncompressed public key, base64url: `k=` in the header, and what the page passes to
    /// `pushManager.subscribe({applicationServerKey})`.
    public var publicKey: String { PushBase64URL.encode(key.publicKey.x963Representation) }

    /// `Authorization: vapid t=<JWT>, k=<public key>` for a request to `endpoint`.
    public func authorization(for endpoint: URL, now: Date) throws -> String {
        "vapid t=\(try token(audience: Self.audience(of: endpoint), now: now)), k=\(publicKey)"
    }

    /// The JWT: `{"typ":"JWT","alg":"ES256"}`, claims `aud` (the push service's origin), `exp`
    /// and `sub`; the signature is ECDSA P-256 over SHA-256 in JWS's raw r‖s form.
    public func token(audience: String, now: Date) throws -> String {
        struct Claims: Encodable { var aud: String; var exp: Int; var sub: String }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let header = PushBase64URL.encode(Data(#"{"typ":"JWT","alg":"ES256"}"#.utf8))
        let claims = PushBase64URL.encode(
            try encoder.encode(
                Claims(aud: audience, exp: Int(now.timeIntervalSince1970 + lifetime), sub: subject)))
        let signingInput = "\(header).\(claims)"
        let signature = try key.signature(for: Data(signingInput.utf8))
        return "\(signingInput).\(PushBase64URL.encode(signature.rawRepresentation))"
    }

    /// `scheme://host[:port]` of an endpoint: the JWT's audience (RFC 8292 §2).
    public static func audience(of endpoint: URL) -> String {
        let components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)
        var host = components?.host ?? ""
        if host.contains(":") && !host.hasPrefix("[") { host = "[\(host)]" }
        var origin = "\(components?.scheme ?? "https")://\(host)"
        if let port = components?.port { origin += ":\(port)" }
        return origin
    }
}
