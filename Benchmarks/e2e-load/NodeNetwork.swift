import Foundation
import TestSupport

/// A network of our own for the NATS nodes, so that one of them can be cut off: each node runs in
/// a network namespace we create, joined to the others by a bridge, and the services and phones
/// (in the host's namespace) reach every node through it. A partition is a silent one, as a
/// switch failing or a cable pulled: every packet in or out of the node's namespace is dropped,
/// nothing is refused, and a live TCP connection only learns of it from its keep-alive.
///
/// On loopback there is no way to cut off one process and not the others; the issue asks for
/// namespaces we create, and nothing here reaches beyond them. Needs root (`ip netns`, iptables).
struct NodeNetwork: Sendable {
    /// Each node's address, node 0 first.
    let hosts: [String]
    private let namespaces: [String]
    private let bridge: String
    private let vethNames: [String]

    init(nodes: Int) throws {
        guard geteuid() == 0 else {
            throw HarnessError.processFailed("a network partition case needs root (ip netns, iptables)")
        }
        // Names short enough for the kernel's 15-byte interface names, and unique per run so that
        // two runs (or the leftovers of a killed one) never share a bridge or a subnet.
        let tag = String(UInt16.random(in: 0...UInt16.max), radix: 16)
        let subnet = "10.201.\(Int.random(in: 1...254))"
        bridge = "swb\(tag)"
        namespaces = (0..<nodes).map { "sw\(tag)n\($0)" }
        vethNames = (0..<nodes).map { "sw\(tag)v\($0)" }
        hosts = (0..<nodes).map { "\(subnet).\(10 + $0)" }
        Cleanup.register(teardown: teardownCommands)
        try Self.ip("link", "add", bridge, "type", "bridge")
        try Self.ip("addr", "add", "\(subnet).1/24", "dev", bridge)
        try Self.ip("link", "set", bridge, "up")
        // With br_netfilter loaded (Docker loads it and sets FORWARD's policy to DROP), frames
        // between two ports of the bridge pass the host's FORWARD chain.
        try Self.iptables(namespace: nil, "-I", "FORWARD", "-i", bridge, "-o", bridge, "-j", "ACCEPT")
        for node in 0..<nodes {
            let (ns, veth, peer) = (namespaces[node], vethNames[node], "\(vethNames[node])p")
            try Self.ip("netns", "add", ns)
            try Self.ip("link", "add", veth, "type", "veth", "peer", "name", peer)
            try Self.ip("link", "set", peer, "netns", ns)
            try Self.ip("link", "set", veth, "master", bridge, "up")
            try Self.ip("netns", "exec", ns, Self.ipPath, "addr", "add", "\(hosts[node])/24", "dev", peer)
            try Self.ip("netns", "exec", ns, Self.ipPath, "link", "set", peer, "up")
            try Self.ip("netns", "exec", ns, Self.ipPath, "link", "set", "lo", "up")
        }
    }

    /// The command that runs `executable` inside `node`'s namespace.
    func command(node: Int, _ executable: String, _ arguments: [String]) -> (String, [String]) {
        (Self.ipPath, ["netns", "exec", namespaces[node], executable] + arguments)
    }

    /// Drops every packet into and out of `node`'s namespace (its loopback aside).
    func partition(_ node: Int) throws {
        try Self.iptables(namespace: namespaces[node], "-I", "INPUT", "!", "-i", "lo", "-j", "DROP")
        try Self.iptables(namespace: namespaces[node], "-I", "OUTPUT", "!", "-o", "lo", "-j", "DROP")
    }

    /// Undoes ``partition(_:)``.
    func heal(_ node: Int) throws {
        try Self.iptables(namespace: namespaces[node], "-D", "INPUT", "!", "-i", "lo", "-j", "DROP")
        try Self.iptables(namespace: namespaces[node], "-D", "OUTPUT", "!", "-o", "lo", "-j", "DROP")
    }

    /// Removes the namespaces, the bridge and the FORWARD rule; what is already gone is skipped.
    func teardown() {
        for (path, arguments) in teardownCommands { _ = try? Cluster.run(path, arguments) }
    }

    private var teardownCommands: [(String, [String])] {
        namespaces.map { (Self.ipPath, ["netns", "delete", $0]) } + [
            (Self.ipPath, ["link", "delete", bridge]),
            (Self.iptablesPath, ["-D", "FORWARD", "-i", bridge, "-o", bridge, "-j", "ACCEPT"]),
        ]
    }

    private static func ip(_ arguments: String...) throws { try Cluster.run(ipPath, arguments) }

    private static func iptables(namespace: String?, _ arguments: String...) throws {
        if let namespace {
            try Cluster.run(ipPath, ["netns", "exec", namespace, iptablesPath, "-w"] + arguments)
        } else {
            try Cluster.run(iptablesPath, ["-w"] + arguments)
        }
    }

    static let ipPath = SystemExecutable.find("ip")
    static let iptablesPath = SystemExecutable.find("iptables")
}

/// Debian installs `nats-server`, `ip` and `iptables` in /usr/sbin, which is not on every user's PATH.
enum SystemExecutable {
    static func find(_ name: String) -> String {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        return (path + ["/usr/sbin", "/usr/bin", "/sbin", "/bin"]).map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) } ?? name
    }
}
