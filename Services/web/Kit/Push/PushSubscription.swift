import Crypto
import Foundation

/// One browser's push subscription (`PushSubscription.toJSON()`), checked: an endpoint web may
/// post to, a P-256 public key that is a point on the curve, and a 16-byte auth secret.
public struct PushSubscription: Hashable, Sendable {
    /// The longest endpoint kept: real ones are 150-400 characters.
    public static let maxEndpoint = 1_024

    public let endpoint: URL
    /// `p256dh`: the uncompressed point, 65 bytes.
    public let p256dh: Data
    /// `auth`: 16 bytes.
    public let auth: Data

    /// Why a subscription was refused, as the API's field error reports it.
    public enum Problem: Error, Equatable, Sendable {
        case endpoint(String)
        case p256dh(String)
        case auth(String)
    }

    /// Loopback hosts an `http` endpoint may name when tests allow it.
    static let loopbackHosts: Set<String> = ["127.0.0.1", "localhost", "::1", "[::1]"]

    public init(endpoint text: String, p256dh: String, auth: String, settings: PushSettings) throws(Problem) {
        endpoint = try Self.endpoint(text, settings: settings)
        guard let key = PushBase64URL.decode(p256dh) else { throw .p256dh("invalid") }
        guard key.count == 65, key.first == 0x04, (try? P256.KeyAgreement.PublicKey(x963Representation: key)) != nil
        else { throw .p256dh("invalid") }
        guard let secret = PushBase64URL.decode(auth), secret.count == 16 else { throw .auth("invalid") }
        self.p256dh = key
        self.auth = secret
    }

    /// Stored values, checked when they were stored.
    init(trusted endpoint: URL, p256dh: Data, auth: Data) {
        self.endpoint = endpoint
        self.p256dh = p256dh
        self.auth = auth
    }

    public var publicKey: P256.KeyAgreement.PublicKey? { try? P256.KeyAgreement.PublicKey(x963Representation: p256dh) }

    /// An absolute https URL whose host is a push service of ``PushSettings/services``; no user
    /// or password, no fragment, printable ASCII only (it goes into a request line as it is).
    static func endpoint(_ text: String, settings: PushSettings) throws(Problem) -> URL {
        guard !text.isEmpty else { throw .endpoint("empty") }
        guard text.utf8.count <= maxEndpoint else { throw .endpoint("tooLong") }
        guard text.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else { throw .endpoint("invalidCharacters") }
        guard let url = URL(string: text), let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), let host = components.host?.lowercased(), !host.isEmpty,
            components.user == nil, components.password == nil, components.fragment == nil
        else { throw .endpoint("invalid") }
        if scheme == "http" && settings.allowLoopbackHTTP && loopbackHosts.contains(host) { return url }
        guard scheme == "https" else { throw .endpoint("notHTTPS") }
        guard !isAddress(host), host != "localhost", !host.hasSuffix(".localhost") else {
            throw .endpoint("notAllowed")
        }
        if let services = settings.services,
            !services.contains(where: { host == $0 || host.hasSuffix(".\($0)") })
        {
            throw .endpoint("notAllowed")
        }
        return url
    }

    /// An IPv4 or IPv6 literal: a real push service is always reached by name.
    static func isAddress(_ host: String) -> Bool {
        if host.contains(":") { return true }
        return host.split(separator: ".").allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
    }
}
