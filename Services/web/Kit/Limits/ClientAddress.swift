/// Which address a request came from, for the per-address limits.
///
/// The connection's peer, unless that peer is a proxy named in `SAFEWALK_TRUSTED_PROXY`: then
/// the right-most `X-Forwarded-For` entry that is not itself a trusted proxy (the one our proxy
/// saw; anything left of it was written by the client and proves nothing). A header from anyone
/// else is ignored, so a client cannot pick its own address to dodge the limit.
public enum ClientAddress {
    /// The longest textual IP address (IPv6 with an embedded IPv4).
    static let maxLength = 45

    public static func resolve(peer: String?, forwardedFor: [String], trustedProxies: Set<String>) -> String {
        let peer = peer ?? "unknown"
        guard trustedProxies.contains(peer) else { return peer }
        let hops = forwardedFor.flatMap { $0.split(separator: ",").map { String($0).trimmingWhitespace() } }
        for hop in hops.reversed() where !trustedProxies.contains(hop) {
            return isAddress(hop) ? hop : peer
        }
        return peer
    }

    /// Looks like an IPv4 or IPv6 address: hex digits, dots and colons, short. Anything else in
    /// the header is not used as a key (it would let a client fill memory with long keys).
    static func isAddress(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= maxLength
            && text.unicodeScalars.allSatisfy { $0.properties.isASCIIHexDigit || $0 == "." || $0 == ":" }
    }
}
