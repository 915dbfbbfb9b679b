import Foundation

/// Whether a broker node accepts a TCP connection within a time limit, asked before
/// libmosquitto's blocking `mosquitto_connect`, which has no time limit of its own.
///
/// A node cut off by a network partition drops packets instead of refusing them: a connect to it
/// waits for the kernel to give up (about two minutes with Linux's default `tcp_syn_retries`),
/// and a client that lost such a node tries it first. With other nodes to go to, that wait is a
/// service offline for two minutes; the probe gives up after `seconds` and the client moves on.
/// libmosquitto 2.0.11 offers no connect timeout and no hook on its socket before `connect`.
public enum NodeProbe {
    /// True once a TCP connection to `node` is established, false on refusal, on an unresolvable
    /// name or when `seconds` pass first. The connection is closed at once.
    public static func accepts(_ node: MQTTNode, within seconds: Double) -> Bool {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(node.host, String(node.port), &hints, &found) == 0, let first = found else { return false }
        defer { freeaddrinfo(first) }
        let deadline = ContinuousClock.now + .seconds(seconds)
        var address: UnsafeMutablePointer<addrinfo>? = first
        while let candidate = address {
            if connects(candidate.pointee, before: deadline) { return true }
            address = candidate.pointee.ai_next
        }
        return false
    }

    private static func connects(_ address: addrinfo, before deadline: ContinuousClock.Instant) -> Bool {
        let socket = Glibc.socket(address.ai_family, address.ai_socktype | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard socket >= 0 else { return false }
        defer { close(socket) }
        if connect(socket, address.ai_addr, address.ai_addrlen) == 0 { return true }
        guard errno == EINPROGRESS else { return false }
        var poller = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
        let left = ContinuousClock.now.duration(to: deadline).components
        let milliseconds = max(0, left.seconds * 1000 + left.attoseconds / 1_000_000_000_000_000)
        guard poll(&poller, 1, Int32(clamping: milliseconds)) == 1 else { return false }
        var failure: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(socket, SOL_SOCKET, SO_ERROR, &failure, &length) == 0 else { return false }
        return failure == 0
    }
}
