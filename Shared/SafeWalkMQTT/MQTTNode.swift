import Foundation

/// One broker node a client may connect to: a clustered broker (NATS with JetStream, say) is
/// reached through any of its nodes, and a client whose node died moves to the next one.
public struct MQTTNode: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Parses `host:port,host:port` (an IPv6 address in brackets: `[::1]:1883`). Nil, with
    /// nothing parsed, if any entry is not a host and a port in 1...65535; empty entries are
    /// refused too, so a stray comma is an error rather than a node silently left out.
    public static func list(_ text: String) -> [MQTTNode]? {
        var nodes: [MQTTNode] = []
        for entry in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let node = node(Substring(entry.trimmingCharacters(in: [" "]))) else { return nil }
            nodes.append(node)
        }
        return nodes
    }

    private static func node(_ entry: Substring) -> MQTTNode? {
        guard let colon = entry.lastIndex(of: ":"), let port = Int(entry[entry.index(after: colon)...]),
            (1...65_535).contains(port)
        else { return nil }
        var host = entry[..<colon]
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        guard !host.isEmpty, !host.contains(where: { $0 == "[" || $0 == "]" || $0 == " " }) else { return nil }
        return MQTTNode(host: String(host), port: port)
    }

    /// The nodes to try, in order, after losing the connection to `nodes[current]`: that node
    /// first (a restarted single broker, or a blip, is the common case), then the others in
    /// list order from the one after it, so clients spread over the cluster as they started.
    public static func attemptOrder(count: Int, after current: Int) -> [Int] {
        guard count > 0 else { return [] }
        return (0..<count).map { (current + $0) % count }
    }
}
